/**
 * The HTML of every explorer page: a header with the navigation, an empty `main` the bundled script
 * fills from the public API, and the asset links. The server only says which page it is and whether
 * the reader holds a subscriber session (an HttpOnly cookie the script cannot read); every figure is
 * fetched by the script from `/api/v1` and `/tax`, like any other client.
 */
import type { AssetManifest } from './build-explorer.js';
import { escapeHtml } from './html-text.js';

export type ExplorerPage = 'subnets' | 'subnet' | 'tax';
export type Access = 'public' | 'subscriber';

export interface ShellOptions {
  title: string;
  /** The assets to link; a message page without a bundle (not built) still gets a readable page. */
  manifest: AssetManifest | null;
  access: Access;
  /** What the script renders; absent on message pages (they are complete as served). */
  page?: ExplorerPage;
  netuid?: number;
  /** The page's content as served (a heading and a loading line, or a whole message). */
  body: string;
  /**
   * Whether the reader holds an account cookie (`svc_account`): the header then links to "Account",
   * else to "Sign in". Decided by the cookie's presence only; the account page verifies it.
   */
  account?: 'signed-in' | 'signed-out';
  /** The gateway serves the sandbox's synthetic world (`SBM_SANDBOX=1`, set by `make demo`): every page says so. */
  sandbox?: boolean;
}

/** The line every page carries while the gateway serves the sandbox's world. */
export const SANDBOX_NOTICE =
  "Every figure on this page comes from the local sandbox chain's synthetic world (invented subnets, burns, " +
  'stakes and prices), not from Bittensor. It shows how the service works, not what the network does. ' +
  'Payments go to a local Stripe stand-in: nothing is charged.';

export function renderShell(options: ShellOptions): string {
  const { manifest, page } = options;
  const data = [
    page ? ` data-page="${page}"` : '',
    ` data-access="${options.access}"`,
    options.netuid === undefined ? '' : ` data-netuid="${options.netuid}"`,
  ].join('');
  const stylesheet = manifest ? `<link rel="stylesheet" href="/assets/${escapeHtml(manifest.css)}">` : '';
  const script =
    manifest && page ? `<script type="module" src="/assets/${escapeHtml(manifest.js)}"></script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(options.title)} · Subnet burn metrics</title>
${stylesheet}
${script}
</head>
<body${data}>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/">Subnet burn metrics</a>
<nav aria-label="Site">
<a href="/">Subnets</a>
<a href="/tax">Tax check</a>
<a href="/api/v1/openapi.json">API (OpenAPI)</a>
<a href="/api/v1/method">Method</a>
<a href="/api-plan">API plan</a>
<a href="/account">${options.account === 'signed-in' ? 'Account' : 'Sign in'}</a>
${accessControl(options.access, options.account)}
</nav>
</header>
${options.sandbox ? `<p class="sandbox-notice" role="note"><strong>Sandbox.</strong> ${escapeHtml(SANDBOX_NOTICE)}</p>\n` : ''}<main id="main">
${options.body}
</main>
<footer class="site">
<p>Burns are on-chain actions only: they do not establish revenue, a market purchase or who paid. Dates and times are UTC.</p>
</footer>
</body>
</html>
`;
}

/**
 * Who the header says is reading: a subscriber (with its sign-out), a person signed in to an API-plan
 * account (whose history windows come with a key, not in these pages), or nobody (the subscribers' hint).
 */
function accessControl(access: Access, account: ShellOptions['account']): string {
  if (access === 'subscriber') {
    return `<form class="sign-out" method="post" action="/explore/sign-out"><span class="badge">Subscriber</span> <button type="submit">Sign out</button></form>`;
  }
  if (account === 'signed-in') {
    return '<span class="hint" title="Your API keys and usage are on the account page; the longer windows here are for subscribers">Signed in: API plan account</span>';
  }
  return '<span class="hint" title="Subscribers sign in with the one-time link they are sent">Subscribers: use your sign-in link</span>';
}

/** A complete page with a heading and a few paragraphs (sign-in outcomes, not found, not built). */
export function messagePage(options: {
  title: string;
  paragraphs: string[];
  manifest: AssetManifest | null;
  access: Access;
  sandbox?: boolean;
}): string {
  const body = [
    `<h1>${escapeHtml(options.title)}</h1>`,
    ...options.paragraphs.map((text) => `<p>${text}</p>`),
  ].join('\n');
  return renderShell({
    title: options.title,
    manifest: options.manifest,
    access: options.access,
    body,
    sandbox: options.sandbox ?? false,
  });
}
