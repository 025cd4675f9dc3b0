import type { Order } from '../../pipeline/contract/order.js';
import type { AssetManifest } from '../web/build-explorer.js';
import { escapeHtml } from '../web/html-text.js';
import { htmlHeaders } from '../web/page-headers.js';
import { messagePage } from '../web/page-shell.js';

/** How often a waiting status page reloads itself, in seconds. */
export const STATUS_REFRESH_SECONDS = 10;

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
 * The order's status as a page, for the buyer's browser that Stripe sends back to the success URL:
 * while the order waits for its payment or its pack, the page reloads itself (a `Refresh` header: the
 * pages run no inline script) and says so; once the pack is ready it offers the download, and after the
 * retention it says the pack was deleted. The same facts as the JSON, nothing more.
 */
export function orderStatusPage(
  view: Order,
  now: Date,
  manifest: AssetManifest | null,
  extraHeaders: Record<string, string>,
  sandbox = false,
): Response {
  const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const what = `${escapeHtml(view.pack.name)} for ${view.coldkeys.length} coldkey${view.coldkeys.length === 1 ? '' : 's'}`;
  const reference = `Order <code>${escapeHtml(view.id)}</code>, ${what}.`;
  let title: string;
  let paragraphs: string[];
  let refresh = true;
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
      `Payment received ${view.paid_at ? day(view.paid_at) : ''}. Your pack is being built from the chain record; this usually takes a minute or two.`,
      'You will also get an email with the download link when it is ready.',
    ];
  } else if (now >= new Date(view.pack_expires_at)) {
    refresh = false;
    title = 'Your tax pack was deleted';
    paragraphs = [
      reference,
      `Packs are kept ${view.retention_days} days after they are ready; this one was deleted on ${day(view.pack_expires_at)}.`,
    ];
  } else {
    refresh = false;
    title = 'Your tax pack is ready';
    paragraphs = [
      reference,
      `<a class="download" href="${escapeHtml(view.pack_url)}" download>Download the pack (ZIP)</a>`,
      `The link works until ${day(view.pack_expires_at)}; keep a copy: the pack is deleted after that.`,
    ];
  }
  if (refresh)
    paragraphs.push(
      `This page refreshes itself every ${STATUS_REFRESH_SECONDS} seconds; you can leave it open.`,
    );
  const html = messagePage({ title, paragraphs, manifest, access: 'public', sandbox });
  return new Response(html, {
    headers: {
      ...htmlHeaders(),
      ...extraHeaders,
      ...(refresh ? { refresh: String(STATUS_REFRESH_SECONDS) } : {}),
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
