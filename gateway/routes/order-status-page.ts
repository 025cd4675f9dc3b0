import type { Order } from '../../pipeline/contract/order.js';
import type { InputProblem } from '../../pipeline/tax/products/own-records/customer-inputs.js';
import {
  groupLine,
  kindTitle,
  pointsLead,
  pointsView,
  restLine,
} from '../../pipeline/tax/products/pack/points-view.js';
import { CgtDecimal, pounds } from '../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { estimatedBuildSeconds, isBigPack, roughly } from '../orders/build-progress.js';
import type { PagePoint } from '../orders/served-pack-points.js';
import type { BuildProgress } from '../state/order-state.js';
import type { AssetManifest } from '../web/build-explorer.js';
import { escapeHtml } from '../web/html-text.js';
import { htmlHeaders } from '../web/page-headers.js';
import { messagePage, renderShell } from '../web/page-shell.js';
import { packPointsSection } from './order-pack-points.js';

/** How often a waiting status page reloads itself, in seconds. */
export const STATUS_REFRESH_SECONDS = 10;
/**
 * How often the page of a big pack's build reloads itself: once a minute, so a buyer who leaves it open for
 * the build's minutes stays well within the tax limit (20 requests an hour per address) that its reads count
 * against.
 */
export const BIG_PACK_REFRESH_SECONDS = 60;

/**
 * Whether the caller asked for a page: its Accept names `text/html` with a weight above JSON's. Browsers
 * send `text/html,…,*\/*;q=0.8`; curl sends `*\/*` and scripts `application/json`: they keep the JSON.
 */
export function wantsHtml(accept: string | null): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(weight)) continue;
    if (type === 'text/html') html = Math.max(html, weight);
    if (type === 'application/json') json = Math.max(json, weight);
  }
  return html > 0 && html >= json;
}

/**
 * What the buyer is told of the build's time: "a minute or two" for a usual pack; for a big one (its
 * estimate from its blocks and positions × days above two minutes, see build-progress.ts) its size,
 * roughly how long it takes and when it began, and how far it is (chain blocks read of the total).
 */
function buildTime(build: BuildProgress | null, day: (iso: string) => string): string {
  if (!build || build.days === 0 || !isBigPack(build)) return 'this usually takes a minute or two.';
  const seconds = estimatedBuildSeconds(build);
  const share =
    build.phase === 'writing-files'
      ? ' The chain is read; the files are being written.'
      : build.blocks > 0
        ? ` So far ${Math.floor((100 * build.blocksRead) / build.blocks)}% of the chain record is read.`
        : '';
  return (
    `this is a big pack, ${build.positions} positions over ${build.days} days, so it takes longer than most: ` +
    `${roughly(seconds)} from ${day(build.startedAt)}.${share}`
  );
}

/**
 * The order's status as a page, for the buyer's browser that Stripe sends back to the success URL:
 * while the order waits for its payment or its pack, the page reloads itself (a `Refresh` header: the
 * pages run no inline script) and says so; once the pack is ready it offers the download, and after the
 * retention it says the pack was deleted. The same facts as the JSON, nothing more.
 *
 * A ready pack's page lists its versions (each upload's files: name, rows, SHA-256; a rejected
 * one's problem) and offers "Add your records and addresses", a plain form (no script: the pages' CSP)
 * posting to the order's `records_url`. While a version is being built the page refreshes itself and
 * shows no form (a refresh would empty one being filled in). Every name shown is escaped.
 */
export function orderStatusPage(
  view: Order,
  now: Date,
  manifest: AssetManifest | null,
  extraHeaders: Record<string, string>,
  sandbox = false,
  /** The build under way, as its worker last recorded it (null: not started, or not known). */
  build: BuildProgress | null = null,
  /** The points to check of the pack the link serves (its points.csv); null: none to show. */
  points: PagePoint[] | null = null,
): Response {
  const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const what = `${escapeHtml(view.pack.name)} for ${view.coldkeys.length} coldkey${view.coldkeys.length === 1 ? '' : 's'}`;
  const reference = `Order <code>${escapeHtml(view.id)}</code>, ${what}.`;
  let title: string;
  let paragraphs: string[];
  let refresh = true;
  let extra = '';
  if (view.status === 'created') {
    title = 'Waiting for your payment';
    paragraphs = [
      reference,
      'We have not received the payment confirmation yet. It usually arrives within seconds of paying.',
    ];
  } else if (view.status === 'paid' || !view.pack_url || !view.pack_expires_at) {
    title = 'Preparing your tax pack';
    paragraphs = [
      reference,
      `Payment received ${view.paid_at ? day(view.paid_at) : ''}. Your pack is being built from the chain record; ${buildTime(build, day)}`,
      'You will also get an email with the download link when it is ready.',
    ];
    extra = packPointsSection();
  } else if (now >= new Date(view.pack_expires_at)) {
    refresh = false;
    title = 'Your tax pack was deleted';
    paragraphs = [
      reference,
      `Packs are kept ${view.retention_days} days after they are ready; this one was deleted on ${day(view.pack_expires_at)}.`,
    ];
  } else {
    const revisions = view.revisions ?? [];
    const building = revisions.find((r) => r.status === 'pending');
    refresh = building !== undefined;
    title = 'Your tax pack is ready';
    const version = view.pack_version ?? 1;
    paragraphs = [
      reference,
      `<a class="download" href="${escapeHtml(view.pack_url)}" download>Download the pack (ZIP)${revisions.length > 0 ? `, version ${version}` : ''}</a>`,
      `The link works until ${day(view.pack_expires_at)}; keep a copy: the pack is deleted after that.`,
    ];
    if (building) {
      paragraphs.push(
        `Version ${building.version}, with the records you added, is being built; ${buildTime(build, day)} Until it is ready the link gives version ${version}.`,
      );
    }
    extra = [
      revisions.length > 0 ? versionsSection(revisions, day, version) : '',
      points ? pointsSection(points, version, view.records_url && !building ? view.records_url : null) : '',
      view.records_url && !building ? recordsForm(view.records_url) : '',
      packPointsSection(),
    ].join('\n');
  }
  const every =
    build && build.days > 0 && isBigPack(build) ? BIG_PACK_REFRESH_SECONDS : STATUS_REFRESH_SECONDS;
  if (refresh)
    paragraphs.push(
      every === BIG_PACK_REFRESH_SECONDS
        ? 'This page refreshes itself every minute; you can leave it open.'
        : `This page refreshes itself every ${every} seconds; you can leave it open.`,
    );
  const html = extra
    ? renderShell({
        title,
        manifest,
        access: 'public',
        sandbox,
        body: [`<h1>${escapeHtml(title)}</h1>`, ...paragraphs.map((text) => `<p>${text}</p>`), extra].join(
          '\n',
        ),
      })
    : messagePage({ title, paragraphs, manifest, access: 'public', sandbox });
  return new Response(html, {
    headers: {
      ...htmlHeaders(),
      ...extraHeaders,
      ...(refresh ? { refresh: String(every) } : {}),
      'cache-control': 'private, no-store',
      vary: 'Accept',
    },
  });
}

/** The one 404 of the order routes, as a page: an unknown order, a wrong and a missing token read alike. */
export function unknownOrderPage(
  manifest: AssetManifest | null,
  extraHeaders: Record<string, string>,
  sandbox = false,
): Response {
  const html = messagePage({
    title: 'Order not found',
    paragraphs: [
      'This order link is not right: the order is unknown, or the link lost part of its token. Use the whole link from your confirmation email.',
    ],
    manifest,
    access: 'public',
    sandbox,
  });
  return new Response(html, {
    status: 404,
    headers: { ...htmlHeaders(), ...extraHeaders, 'cache-control': 'private, no-store', vary: 'Accept' },
  });
}

type Revision = NonNullable<Order['revisions']>[number];

/** Each version of the pack: version 1 from the chain record, then each upload's files. */
function versionsSection(revisions: Revision[], day: (iso: string) => string, served: number): string {
  const items = revisions.map((r) => {
    const state =
      r.status === 'built'
        ? `built ${day(r.built_at ?? r.created_at)}`
        : r.status === 'pending'
          ? `being built (added ${day(r.created_at)})`
          : r.status === 'superseded'
            ? `included in version ${r.superseded_by} (added ${day(r.created_at)})`
            : `not built (added ${day(r.created_at)})`;
    const files = r.files
      .map(
        (f) =>
          `<li><span class="file-name">${escapeHtml(f.name)}</span>: ${f.rows} row${f.rows === 1 ? '' : 's'}<br><span class="sha">SHA-256 <code>${escapeHtml(f.sha256)}</code></span></li>`,
      )
      .join('');
    const problem =
      r.status === 'rejected' && r.problem
        ? `<p class="problem">Not built: ${escapeHtml(r.problem)}. The earlier version stays; correct the file and add it again.</p>`
        : '';
    const current = r.version === served ? ' The link gives this version.' : '';
    return `<li class="revision ${r.status}"><strong>Version ${r.version}</strong>: ${state}.${current}${files ? `<ul class="files">${files}</ul>` : ''}${problem}</li>`;
  });
  return `<section class="order-versions" aria-labelledby="versions-title">
<h2 id="versions-title">Versions of your pack</h2>
<ol class="revisions">
<li class="revision built"><strong>Version 1</strong>: from the chain record of your coldkeys.${served === 1 ? ' The link gives this version.' : ''}</li>
${items.join('\n')}
</ol>
</section>`;
}

/**
 * The pack's points to check, as its points.csv orders them and the PDF shows them (`points-view.ts`): a
 * screenful of groups by what settles them, each naming its action once, then its largest points, the
 * smallest of a big group on one line, counted and totalled. A point about an address outside the order
 * carries a one-button form that posts that address as the buyer's own to `records_url`, the same upload (and
 * checks) as the form below: the next version is built with it and the point is gone from it. An address on
 * a merged line is marked in the form below. No button while a version is being built.
 */
function pointsSection(points: readonly PagePoint[], version: number, recordsUrl: string | null): string {
  const action = recordsUrl ? escapeHtml(new URL(recordsUrl).pathname + new URL(recordsUrl).search) : null;
  const stake = (point: PagePoint) => (point.gbp === '' ? null : new CgtDecimal(point.gbp));
  const title = (point: PagePoint): string => {
    const gbp = stake(point);
    const amount = gbp === null ? '' : `: £${pounds(gbp)} at stake`;
    switch (point.kind) {
      case 'address':
        return `Transfers with <code class="address">${escapeHtml(point.counterparty)}</code>${amount}`;
      case 'missing-records':
        return `No records of ${escapeHtml(point.label || point.counterparty)}`;
      default:
        return `${escapeHtml(kindTitle(point.kind))}${amount}`;
    }
  };
  const view = pointsView(points, stake);
  const item = (rank: number, point: PagePoint, ownAction: boolean): string => {
    const mark =
      action && point.kind === 'address' && point.counterparty
        ? `<form class="mark-own" method="post" action="${action}" enctype="multipart/form-data"><input type="hidden" name="own_address" value="${escapeHtml(point.counterparty)}"><button type="submit">This address is mine</button></form>`
        : '';
    const own = ownAction
      ? `<br><span class="point-action">What settles it: ${escapeHtml(point.action)}</span>`
      : '';
    return `<li class="point ${escapeHtml(point.kind)}" value="${rank}"><strong>${title(point)}</strong>${mark}<br>${escapeHtml(point.point)}${own}</li>`;
  };
  const groups = view.groups.map((group) => {
    // One point of its kind: the point with its action, no group line.
    if (group.count === 1) {
      const { rank, point } = group.shown[0]!;
      return `<ol class="points">\n${item(rank, point, true)}\n</ol>`;
    }
    const items = group.shown.map(({ rank, point }) => item(rank, point, point.action !== group.action));
    // The merged line under the list: its points' numbers are in its words, not the list's.
    const rest = group.rest
      ? `\n<p class="point-rest ${escapeHtml(group.kind)}">${escapeHtml(restLine(group.kind, group.rest))}${
          action && group.kind === 'address'
            ? ' To mark one of them as yours, paste it in "Your own addresses" below.'
            : ''
        }</p>`
      : '';
    return `<h3 class="point-group ${escapeHtml(group.kind)}">${escapeHtml(groupLine(group))}</h3>
<p class="point-action">What settles each: ${escapeHtml(group.action)}</p>
<ol class="points">
${items.join('\n')}
</ol>${rest}`;
  });
  const lead =
    points.length === 0
      ? `<p>Version ${version} of your pack has none.</p>`
      : `<p>In version ${version} of your pack: ${escapeHtml(pointsLead(points.length, view.groups))}${points.some((p) => p.kind === 'address') ? ' Marking an address as yours builds a new version at no charge, without that point.' : ''}</p>\n${groups.join('\n')}`;
  return `<section class="order-points" aria-labelledby="points-title">
<h2 id="points-title">Points to check (${points.length})</h2>
${lead}
</section>`;
}

/** The upload form: a plain multipart form to `records_url` (the token is in it, as in the pack link). */
function recordsForm(recordsUrl: string): string {
  const action = escapeHtml(new URL(recordsUrl).pathname + new URL(recordsUrl).search);
  return `<section class="order-records" aria-labelledby="records-title">
<h2 id="records-title">Add your records and addresses</h2>
<p>Bought or sold TAO or alpha on an exchange, or hold it in other wallets? Add those records and the pack pools them with what your coldkeys hold. A new version of the pack is built at no charge, and the link above then gives it.</p>
<form class="upload" method="post" action="${action}" enctype="multipart/form-data">
<label for="records-files">Records <span class="field-hint">CSV files: an exchange's export as downloaded (Kraken, Binance, Coinbase, KuCoin, Bybit, OKX, Gate, MEXC), Koinly's or BittyTax's format, or the plain one: <code>time_utc,type,asset,quantity,gbp_value,fee</code>. USDT or another token paid in from elsewhere: add the export of the exchange you bought it on too, or its cost is taken at its market value that day</span></label>
<input id="records-files" type="file" name="records" multiple accept=".csv,text/csv">
<label for="records-addresses">Your own addresses <span class="field-hint">Exchange deposit addresses, other coldkeys: a first line <code>address,label</code>, then one address and its label per line</span></label>
<textarea id="records-addresses" name="addresses" rows="4" spellcheck="false" placeholder="address,label"></textarea>
<label for="records-opening">Opening pools <span class="field-hint">Optional: last year's <code>pools.csv</code> from your pack, or your own figures</span></label>
<input id="records-opening" type="file" name="opening" accept=".csv,text/csv">
<button type="submit">Add to my pack</button>
</form>
<p class="hint">Each file is checked before anything is kept: a file with a mistake is refused with its line and the reason. Your files are kept with your pack and deleted with it.</p>
</section>`;
}

/**
 * An upload refused, as a page for the buyer's browser: what was wrong, each problem (file, line,
 * column, reason; every part escaped: names and reasons can quote what the buyer sent), and the way back.
 */
export function recordsRefusedPage(options: {
  status: number;
  detail: string;
  problems: InputProblem[];
  back: string;
  manifest: AssetManifest | null;
  headers: Record<string, string>;
  sandbox: boolean;
}): Response {
  const title = 'Your files were not added';
  const items = options.problems.map((p) => {
    const where = [
      p.file ? `<span class="file-name">${escapeHtml(p.file)}</span>` : '',
      p.line > 0 ? `line ${p.line}` : '',
      p.column ? `column ${escapeHtml(p.column)}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `<li>${where ? `${where}: ` : ''}${escapeHtml(p.reason)}</li>`;
  });
  const count = options.problems.length;
  const lead =
    count > 0
      ? `${count === 1 ? 'One problem was' : `${count} problems were`} found. Nothing of this upload was kept: correct the file and add it again.`
      : options.detail;
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(lead)}</p>`,
    items.length > 0 ? `<ul class="problems">\n${items.join('\n')}\n</ul>` : '',
    `<p><a href="${escapeHtml(options.back)}">Back to your order</a></p>`,
  ]
    .filter(Boolean)
    .join('\n');
  const html = renderShell({
    title,
    manifest: options.manifest,
    access: 'public',
    sandbox: options.sandbox,
    body,
  });
  return new Response(html, {
    status: options.status,
    headers: {
      ...htmlHeaders(),
      ...options.headers,
      'cache-control': 'private, no-store',
      vary: 'Accept',
    },
  });
}
