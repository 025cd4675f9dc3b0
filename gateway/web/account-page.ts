/**
 * The account pages, rendered on the server and usable without JavaScript (the one script only adds
 * the copy button). No inline script or style (the CSP forbids both): the daily bars are SVG shapes
 * sized by attributes.
 */
import { DAY_MS } from '../../pipeline/time/utc-day.js';
import type { KeyUsageSummary, UsageSummary } from '../account/account-keys.js';
import { type KeyEvent, OPERATOR_SOURCE, type SubscriptionRecord } from '../state/billing-state.js';
import type { Account } from '../state/gateway-state.js';
import type { AssetManifest } from './build-explorer.js';
import { escapeHtml } from './html-text.js';
import { renderShell } from './page-shell.js';

const minute = (date: Date | null): string =>
  date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'never';
const day = (date: Date): string => date.toISOString().slice(0, 10);
/** Counts as people read them: 10,000 (the page's language is English). */
const count = (n: number): string => n.toLocaleString('en-US');

/** What every account page is framed with: the explorer's stylesheet, and whether it serves the sandbox. */
export interface PageFrame {
  manifest: AssetManifest | null;
  /** `SBM_SANDBOX=1` (`make demo`): the pages say so, as the explorer's do. */
  sandbox: boolean;
}

function page(title: string, body: string, frame: PageFrame, signedIn: boolean): string {
  return renderShell({
    title,
    manifest: frame.manifest,
    sandbox: frame.sandbox,
    access: 'public',
    body,
    account: signedIn ? 'signed-in' : 'signed-out',
  });
}

export function signInFormPage(options: { frame: PageFrame; formToken: string; notice?: string }): string {
  return page(
    'Account',
    `<h1>Sign in to your account</h1>
${options.notice ? `<p class="notice" role="status">${options.notice}</p>` : ''}
<p>Enter your email address. We send a one-time sign-in link; the first sign-in opens your account.
The API plan (99 USD a month, 10,000 successful requests a month, up to 3 keys) is bought from the account page.</p>
<form method="post" action="/account/sign-in-link">
<input type="hidden" name="form" value="${escapeHtml(options.formToken)}">
<label>Email <input type="email" name="email" required autocomplete="email" maxlength="254"></label>
<button type="submit">Send me a sign-in link</button>
</form>
<p><a href="/api-plan">What the API plan gives</a></p>`,
    options.frame,
    false,
  );
}

export function linkSentPage(frame: PageFrame): string {
  return page(
    'Check your email',
    `<h1>Check your email</h1>
<p>If the address can receive mail, a sign-in link is on its way. It works once, for 15 minutes.</p>
<p>Nothing arrived? Look in the spam folder, or <a href="/account">ask again</a> in a few minutes.</p>`,
    frame,
    false,
  );
}

/** What `GET /account/sign-in?token=…` shows: a button. Only its POST spends the token. */
export function confirmPage(frame: PageFrame, token: string): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>Press the button to sign in to your account in this browser.</p>
<form method="post" action="/account/sign-in">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Sign in</button>
</form>`,
    frame,
    false,
  );
}

export function failurePage(frame: PageFrame, title: string, text: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p>${text}</p>\n<p><a href="/account">Ask for a new sign-in link</a></p>`,
    frame,
    false,
  );
}

export interface AccountView {
  account: Account;
  csrf: string;
  usage: UsageSummary;
  subscription: SubscriptionRecord | null;
  events: KeyEvent[];
  /** A key just made: shown this once. */
  newKey?: { name: string; key: string };
  notice?: string;
  now: Date;
  billingEnabled: boolean;
}

export function accountPage(frame: PageFrame, view: AccountView): string {
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">`;
  const sections = [
    `<h1>Your account</h1>`,
    `<p>Signed in as <strong>${escapeHtml(view.account.email ?? view.account.id)}</strong>.</p>`,
    view.notice ? `<p class="notice" role="status">${view.notice}</p>` : '',
    // A key just made comes first: it is what the person came for, and it must be copied now.
    view.newKey ? newKeySection(view.newKey) : '',
    planSection(view, csrf),
    usageSection(view.usage),
    keysSection(view, csrf),
    eventsSection(view.events),
    `<h2>Sessions</h2>
<div class="actions"><form method="post" action="/account/sign-out">${csrf}<button type="submit">Sign out</button></form>
<form method="post" action="/account/sign-out-everywhere">${csrf}<button type="submit">Sign out everywhere</button></form></div>`,
  ];
  return page('Account', `<div class="account">${sections.join('\n')}</div>`, frame, true).replace(
    '</body>',
    '<script type="module" src="/account/account.js"></script>\n</body>',
  );
}

function planSection(view: AccountView, csrf: string): string {
  const { account, subscription, usage, now } = view;
  if (account.billing === 'operator') {
    return `<h2>Plan</h2><p>This account is set up by the operator (no card needed).</p>`;
  }
  const banners: string[] = [];
  const manage = view.billingEnabled
    ? `<form method="post" action="/account/billing-portal">${csrf}<button type="submit">Manage billing</button></form>`
    : '';
  if (subscription?.status === 'past_due' || subscription?.status === 'unpaid') {
    banners.push(
      `<p class="warning" role="alert">The last payment failed. No new period starts until it is paid: update the card in <strong>Manage billing</strong>.</p>`,
    );
  }
  if (subscription?.cancelAtPeriodEnd && subscription.status !== 'canceled') {
    banners.push(`<p class="notice">Cancelled: the plan ends at the end of the paid period.</p>`);
  }
  if (!usage.paid && account.paidPeriodEnd) {
    banners.push(
      `<p class="warning" role="alert">The paid period ended on ${minute(account.paidPeriodEnd)}: keys answer 402 until an invoice is paid.</p>`,
    );
  }
  const live =
    subscription && subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired';
  const status = usage.paid
    ? `<p>API plan: paid until ${minute(account.paidPeriodEnd)}.</p>`
    : `<p>No paid period${account.paidPeriodEnd ? ' now' : ' yet'}. Keys work once the plan is paid.</p>`;
  const subscribe =
    !live && view.billingEnabled
      ? `<form method="post" action="/account/subscribe">${csrf}<button type="submit">Subscribe, 99 USD a month</button></form>`
      : '';
  void now;
  return `<h2>Plan</h2>\n${banners.join('\n')}\n${status}\n${subscribe}\n${live ? manage : ''}`;
}

function newKeySection(newKey: { name: string; key: string }): string {
  return `<section class="new-key" aria-labelledby="new-key">
<h2 id="new-key">Your new key “${escapeHtml(newKey.name)}”</h2>
<p>Copy it now: it is shown this once and cannot be retrieved later.</p>
<p><code id="new-key-value">${escapeHtml(newKey.key)}</code> <button type="button" data-copy="new-key-value" hidden>Copy</button></p>
</section>`;
}

function usageSection(usage: UsageSummary): string {
  if (!usage.period) return '<h2>Usage</h2><p>No billing period yet.</p>';
  const rows = usage.keys
    .filter((k) => k.used > 0 || k.status === 'active')
    .map(
      (k) =>
        `<tr><td>${escapeHtml(k.name)}</td><td><code>${escapeHtml(k.prefix)}…${escapeHtml(k.lastFour)}</code></td><td class="num">${count(k.used)}</td></tr>`,
    )
    .join('');
  return `<h2>Usage</h2>
<p><strong id="usage-used">${count(usage.used)}</strong> of ${count(usage.limit)} successful requests this period
(<span id="usage-remaining">${count(usage.remaining)}</span> left). The allowance resets at ${minute(usage.period.end)}.</p>
<meter class="allowance" min="0" max="${usage.limit}" high="${Math.round(usage.limit * 0.9)}" value="${usage.used}" aria-label="Allowance used">${count(usage.used)} of ${count(usage.limit)}</meter>
${dailyChart(usage.days, usage.period)}
<div class="table-scroll"><table class="account-table"><caption>By key, this period</caption><thead><tr><th>Key</th><th>Prefix</th><th class="num">Requests</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * The daily bars, drawn across the whole period (the days still to come are empty), so the chart
 * also shows how far into the month the account is. No requests yet: a sentence, not an empty box.
 */
function dailyChart(days: UsageSummary['days'], period: { start: Date; end: Date }): string {
  if (!days.some((d) => d.used > 0)) return '<p class="note">No successful requests yet this period.</p>';
  const periodDays = Math.max(
    days.length,
    Math.ceil((period.end.getTime() - period.start.getTime()) / DAY_MS),
  );
  const max = Math.max(1, ...days.map((d) => d.used));
  const width = 12;
  const height = 80;
  const bars = days
    .map((d, i) => {
      const h = Math.round((d.used / max) * height);
      return `<rect x="${i * width}" y="${height - h}" width="${width - 2}" height="${h}" fill="currentColor"><title>${d.day}: ${count(d.used)}</title></rect>`;
    })
    .join('');
  const span = periodDays * width;
  return `<figure class="usage-chart"><svg role="img" aria-label="Successful requests per UTC day this period" width="${span}" height="${height}" viewBox="0 0 ${span} ${height}">${bars}</svg>
<figcaption>Successful requests per UTC day, from ${day(period.start)} (the highest bar: ${count(max)}); the period ends ${minute(period.end)}.</figcaption></figure>`;
}

function keysSection(view: AccountView, csrf: string): string {
  const rows = view.usage.keys.map((k) => keyRow(k, csrf)).join('\n');
  return `<h2>API keys</h2>
<p>Up to 3 active keys share the allowance. Send one as <code>Authorization: Bearer sbm_live_…</code>.</p>
<div class="table-scroll key-table"><table class="account-table keys"><thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
<form class="create-key" method="post" action="/account/keys">${csrf}
<label>New key's name <input name="name" maxlength="60" placeholder="e.g. dashboard"></label>
<button type="submit">Create key</button>
</form>`;
}

function keyRow(k: KeyUsageSummary, csrf: string): string {
  const status = k.status === 'active' && k.graceEndsAt ? `active until ${minute(k.graceEndsAt)}` : k.status;
  const actions =
    k.status === 'active'
      ? `<div class="actions"><form method="post" action="/account/keys/${escapeHtml(k.id)}/roll">${csrf}
<label>New secret; this one stops <select name="grace"><option value="0">at once</option><option value="3600">in 1 hour</option><option value="86400">in 24 hours</option></select></label>
<button type="submit">Roll</button></form>
<form method="post" action="/account/keys/${escapeHtml(k.id)}/revoke">${csrf}<button type="submit" class="danger">Revoke</button></form></div>`
      : '';
  // Each cell names its column (`data-label`): on a phone the rows are stacked cards (styles.css), so a
  // key's Roll and Revoke sit under it instead of past a sideways scroll.
  return `<tr data-key="${escapeHtml(k.id)}"><td data-label="Name">${escapeHtml(k.name)}</td><td data-label="Key"><code>${escapeHtml(k.prefix)}…${escapeHtml(k.lastFour)}</code></td><td data-label="Created">${day(k.createdAt)}</td><td data-label="Last used">${minute(k.lastUsedAt)}</td><td data-label="Status">${escapeHtml(status)}</td><td data-label="Actions" class="key-actions">${actions}</td></tr>`;
}

function eventsSection(events: KeyEvent[]): string {
  if (events.length === 0) return '<h2>Key activity</h2><p>No key changes yet.</p>';
  const rows = events
    .map(
      (e) =>
        `<tr><td>${minute(e.at)}</td><td>${e.kind}</td><td><code>${escapeHtml(e.keyPrefix)}…</code></td><td>${escapeHtml(e.ip ?? OPERATOR_SOURCE)}</td></tr>`,
    )
    .join('');
  return `<h2>Key activity</h2><div class="table-scroll"><table class="account-table"><thead><tr><th>When</th><th>What</th><th>Key</th><th>From</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * The page's only script. It reveals and wires the copy button (the key stays selectable without it),
 * and after a form's answer (a new key at /account/keys, a roll) it puts /account in the address bar:
 * a reload then opens the account page instead of posting the form again, which would make another
 * key. The secret is not shown again either way.
 */
export const ACCOUNT_SCRIPT = `if (location.pathname !== '/account') history.replaceState(null, '', '/account');
for (const button of document.querySelectorAll('[data-copy]')) {
  const target = document.getElementById(button.getAttribute('data-copy'));
  if (!target || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(target.textContent.trim());
    button.textContent = 'Copied';
  });
}
`;

/** The API plan in plain words: price, allowance, keys, what happens at the cap. */
export function apiPlanPage(frame: PageFrame, signedIn: boolean): string {
  return page(
    'API plan',
    `<h1>API plan</h1>
<p><strong>99 USD a month</strong>, billed by Stripe, separate from the subscriber plan.</p>
<ul>
<li>10,000 successful requests per billing month to the data API (<code>/api/v1</code>), shared by up to 3 active keys. Failed requests do not count.</li>
<li>A hard cap: at 10,000 requests the keys answer 429 until the next paid period starts. There are no automatic extra charges.</li>
<li>Every response carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>; <code>GET /api/v1/usage</code> with a key shows the same without using the allowance.</li>
<li>Cancel any time: a cancelled plan keeps access until the paid period ends.</li>
<li>For internal use in your own tools. Redistribution or a different allowance needs a separate arrangement. No service-level commitment is included.</li>
<li>Please poll no more often than every five minutes: the data changes daily (emissions every five minutes).</li>
</ul>
<p><a href="/account">${signedIn ? 'Go to your account' : 'Sign in with your email to subscribe'}</a></p>`,
    frame,
    signedIn,
  );
}
