/**
 * The network's staking yields as the warehouse holds them now: the window over the complete days whose
 * share pools were read, the pools of each of its days and the pool reserves at its start. Read by the
 * publication (`tax/yields.json`) and printed by `sbm yields`.
 */
import type { TaxYields } from '../contract/tax-published.js';
import { networkYields, yieldWindow } from '../tax/uk-rules/network-yields.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';
import {
  readLastCollectedDay,
  readPoolDays,
  readPoolsOfDay,
  readReservesOfDay,
} from '../warehouse/tax-queries.js';

export async function yieldsOfWarehouse(warehouse: Warehouse, computedAt: Date): Promise<TaxYields> {
  const window = yieldWindow(await readPoolDays(warehouse));
  if (window === null) {
    // No day's pools read yet (`sbm yields` has not run): a window of no days, every yield null.
    const day = (await readLastCollectedDay(warehouse)) ?? computedAt.toISOString().slice(0, 10);
    return networkYields({
      window: { from: day, to: day, days: 0 },
      start: [],
      end: [],
      startReserves: [],
      computedAt,
    });
  }
  const inside = (await readPoolDays(warehouse)).filter((day) => day > window.from && day < window.to);
  const between = [];
  for (const date of inside) between.push({ date, pools: await readPoolsOfDay(warehouse, date) });
  return networkYields({
    window,
    start: await readPoolsOfDay(warehouse, window.from),
    between,
    end: await readPoolsOfDay(warehouse, window.to),
    startReserves: await readReservesOfDay(warehouse, window.from),
    computedAt,
  });
}
