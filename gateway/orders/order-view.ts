import { Order } from '../../pipeline/contract/order.js';
import { type OrderRecord, type OrderRevision, takesUploads } from '../state/order-state.js';
import { packUrl, recordsUrl } from './order-urls.js';

/**
 * The order (the body of `GET /tax/orders/{id}`) as the buyer sees it: `paid_at`, `fulfilled_at`, `pack_url`
 * and `pack_expires_at` are absent until they apply. Revised packs add `pack_version` (the version the pack
 * link serves), `records_url` (while the order takes the buyer's records) and `revisions` (each accepted
 * upload: its files' names, SHA-256 and rows, and a rejected one's problem). Nothing else of the record
 * (email, session, lease, errors, store keys) leaves the gateway. Checked against the contract before it is
 * served.
 */
export function orderView(
  order: OrderRecord,
  baseUrl: string,
  token: string,
  revisions: readonly OrderRevision[] = [],
  now: Date = new Date(),
): Order {
  const fulfilled = order.status === 'fulfilled' && order.fulfilledAt && order.packExpiresAt;
  const paid = order.status !== 'created';
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
    ...(fulfilled ? { pack_version: servedVersion(revisions) } : {}),
    ...(takesUploads(order, now) ? { records_url: recordsUrl(baseUrl, order.id, token) } : {}),
    ...(paid
      ? {
          revisions: revisions.map((r) => ({
            version: r.version,
            status: r.status,
            created_at: r.createdAt.toISOString(),
            ...(r.builtAt ? { built_at: r.builtAt.toISOString() } : {}),
            files: r.files.map((f) => ({ name: f.name, sha256: f.sha256, rows: f.rows, role: f.role })),
            ...(r.status === 'rejected' && r.problem ? { problem: r.problem } : {}),
            ...(r.status === 'superseded' && r.supersededBy ? { superseded_by: r.supersededBy } : {}),
          })),
        }
      : {}),
  });
}

/** The version the pack link serves: the newest built revision, else the first pack. */
export function servedVersion(revisions: readonly OrderRevision[]): number {
  return newestBuilt(revisions)?.version ?? 1;
}

export function newestBuilt(revisions: readonly OrderRevision[]): OrderRevision | null {
  let newest: OrderRevision | null = null;
  for (const r of revisions) if (r.status === 'built' && (!newest || r.version > newest.version)) newest = r;
  return newest;
}
