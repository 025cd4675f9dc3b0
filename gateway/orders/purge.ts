import type { ObjectStore } from '../../pipeline/store/object-store.js';
import type { GatewayState } from '../state/gateway-state.js';

export interface PurgeReport {
  purged: string[];
}

/**
 * `sbm-gateway orders purge`: for every fulfilled order whose pack expired at or before `asOf` (30 days
 * after fulfilment) and that is not purged yet, deletes the pack object, then records `purged_at` and
 * erases the buyer's email in one statement. Idempotent: deleting a missing object is a no-op, so a run
 * that stopped between the two steps is finished by the next; a purged order is not listed again. The
 * order itself stays (its status still answers; the download answers 410 from the expiry on anyway).
 */
export async function purgeExpiredPacks(
  deps: { state: GatewayState; store: ObjectStore },
  asOf: Date,
): Promise<PurgeReport> {
  const purged: string[] = [];
  for (const order of await deps.state.orders.listExpiredPacks(asOf)) {
    if (order.packKey) await deps.store.delete([order.packKey]);
    if (await deps.state.orders.markPurged(order.id, asOf)) purged.push(order.id);
  }
  return { purged };
}
