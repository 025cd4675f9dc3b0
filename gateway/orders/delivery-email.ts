import { NOT_TAX_ADVICE } from '../../pipeline/tax/products/pack/pack-pdf.js';
import type { OrderRecord, OrderRevision } from '../state/order-state.js';
import type { OutgoingMail } from './mailer.js';
import { packUrl, statusUrl } from './order-urls.js';

/** The email that delivers a pack: the order id, the download link, its expiry, and that it is not advice. */
export function deliveryEmail(order: OrderRecord, baseUrl: string, token: string): OutgoingMail {
  if (!order.buyerEmail || !order.packExpiresAt) throw new Error(`order ${order.id} has nothing to deliver`);
  const expires = order.packExpiresAt.toISOString();
  return {
    key: order.id,
    to: order.buyerEmail,
    subject: `Your ${order.packName} is ready (order ${order.id})`,
    text: [
      `Your ${order.packName} (UK tax year ${order.taxYear}) is ready.`,
      '',
      `Order: ${order.id}`,
      `Download the pack: ${packUrl(baseUrl, order.id, token)}`,
      `The link works until ${expires.slice(0, 10)} (${expires}), ${order.retentionDays} days after the pack was made; the pack is deleted after that.`,
      `Order status: ${statusUrl(baseUrl, order.id, token)}`,
      '',
      'Keep this email private: the links open your order.',
      '',
      NOT_TAX_ADVICE,
      '',
    ].join('\n'),
  };
}

/**
 * The email that tells the buyer a revised pack (their own records added) is ready: the same download
 * link, which gives the newest built version, its unchanged expiry, and that it is not advice. Keyed by order and
 * version, so it never replaces the first pack's email in the outbox, and a resend of it replaces itself.
 * It names no file of the buyer's (the order page lists them).
 */
export function revisionEmail(
  order: OrderRecord,
  revision: OrderRevision,
  baseUrl: string,
  token: string,
): OutgoingMail {
  if (!order.buyerEmail || !order.packExpiresAt || revision.status !== 'built')
    throw new Error(`order ${order.id} version ${revision.version} has nothing to deliver`);
  const expires = order.packExpiresAt.toISOString();
  return {
    key: `${order.id}.v${revision.version}`,
    to: order.buyerEmail,
    subject: `Version ${revision.version} of your ${order.packName} is ready (order ${order.id})`,
    text: [
      `Version ${revision.version} of your ${order.packName} (UK tax year ${order.taxYear}), with the records you added, is ready.`,
      '',
      `Order: ${order.id}`,
      `Download the pack: ${packUrl(baseUrl, order.id, token)}`,
      `This is the link you already have: it gives the newest version of your pack. It works until ${expires.slice(0, 10)} (${expires}); the pack and your files are deleted after that.`,
      `Order status and the versions of your pack: ${statusUrl(baseUrl, order.id, token)}`,
      '',
      'Keep this email private: the links open your order.',
      '',
      NOT_TAX_ADVICE,
      '',
    ].join('\n'),
  };
}
