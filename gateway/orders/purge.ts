import type { ObjectStore } from '../../pipeline/store/object-store.js';
import type { GatewayState } from '../state/gateway-state.js';
import { orderKeyPrefix } from './pack-key.js';

export interface PurgeReport {
  purged: string[];
}

/**
 * `sbm-gateway orders purge`: for every fulfilled order whose pack expired at or before `asOf` (30 days
 * after fulfilment) and that is not purged yet, deletes every object of the order (its packs, version 1
 * and each revision's, and the files the buyer uploaded: all under the order's key prefix), then records
 * `purged_at` and erases the buyer's email and their files' names in one step. Idempotent: deleting a missing object is a no-op, so a run
 * that stopped between the two steps is finished by the next; a purged order is not listed again. The
 * order itself stays (its status still answers; the download answers 410 from the expiry on anyway).
 */
export async function purgeExpiredPacks(
  deps: { state: GatewayState; store: ObjectStore },
  asOf: Date,
): Promise<PurgeReport> {
  const purged: string[] = [];
  for (const order of await deps.state.orders.listExpiredPacks(asOf)) {
    const keys = await deps.store.list(orderKeyPrefix(order.id));
    await deps.store.delete(order.packKey && !keys.includes(order.packKey) ? [order.packKey, ...keys] : keys);
    if (await deps.state.orders.markPurged(order.id, asOf)) purged.push(order.id);
  }
  return { purged };
}
