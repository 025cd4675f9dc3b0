import { NOT_TAX_ADVICE } from '../../pipeline/tax/pack/pack-pdf.js';
import type { OrderRecord } from '../state/order-state.js';
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
