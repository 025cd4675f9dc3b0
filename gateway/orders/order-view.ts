import { Order } from '../../pipeline/contract/order.js';
import type { OrderRecord } from '../state/order-state.js';
import { packUrl } from './order-urls.js';

/**
 * The Order of spec 2.10 as the buyer sees it: `paid_at`, `fulfilled_at`, `pack_url` and
 * `pack_expires_at` are absent until they apply. Nothing else of the record (email, session, lease,
 * errors) leaves the gateway. Checked against the contract before it is served.
 */
export function orderView(order: OrderRecord, baseUrl: string, token: string): Order {
  const fulfilled = order.status === 'fulfilled' && order.fulfilledAt && order.packExpiresAt;
  return Order.parse({
    id: order.id,
    status: order.status,
    pack: { sku: order.sku, name: order.packName, kind: order.packKind },
    coldkeys: order.coldkeys,
    created_at: order.createdAt.toISOString(),
    ...(order.paidAt ? { paid_at: order.paidAt.toISOString() } : {}),
    ...(fulfilled
      ? {
          fulfilled_at: order.fulfilledAt!.toISOString(),
          pack_url: packUrl(baseUrl, order.id, token),
          pack_expires_at: order.packExpiresAt!.toISOString(),
        }
      : {}),
    retention_days: order.retentionDays,
  });
}
