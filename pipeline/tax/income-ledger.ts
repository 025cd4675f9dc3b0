/**
 * Staking income per position and UK day. Bittensor emits no event per reward: a position's stake grows as
 * its hotkey's share pool grows. So a day's income is the stake growth that no event explains:
 *
 *   received = stake at the day's last block − stake at the previous day's last block
 *              − Σ over the blocks of that day with an event touching the position (stake after − before)
 *
 * in alpha RAO (TAO on root), exact. The event blocks are measured on the chain (stake at the block and at
 * the block before), so a stake, unstake, move or transfer, whatever its amounts and rounding, never counts
 * as income. A day can be negative (a deregistration, a slash): it is kept as such, never netted away.
 * Valued at receipt (HMRC CRYPTO21200): alpha × the subnet pool's price at the day's last block
 * (`SubnetTAO ÷ SubnetAlphaIn`, truncated to the RAO) × that day's TAO/GBP.
 */
import { Decimal } from 'decimal.js';
import { poolReserves, valueInTaoRao } from '../amounts/pool-price.js';
import { CgtDecimal } from './cgt/cgt-decimal.js';
import type { GbpPrice, GbpPrices } from './gbp-prices.js';
import { type PositionRef, positionId, type StakesAtBlock } from './stake-at-blocks.js';

export interface LedgerDay {
  date: string;
  block: number;
  timeMs: number;
}

export interface IncomeRow {
  date: string;
  position: PositionRef;
  /** The registration of the subnet at the day's last block (0 on root). */
  registeredAt: number;
  /** Received that day: alpha RAO (TAO RAO on root); negative for a loss. */
  alphaRao: bigint;
  /** Its value in TAO RAO at the day's pool price; null when the subnet has no pool price that day. */
  taoRao: bigint | null;
  /** Its value in pounds; null without a pool price or a GBP price. */
  gbp: Decimal | null;
  /** The block whose pool price was used. */
  priceBlock: number;
  gbpPrice: GbpPrice | null;
}

export const GBP_PLACES = 8;
const RAO_PER_UNIT = new CgtDecimal(1_000_000_000);

/** TAO RAO × pounds per TAO, to 8 decimal places (half to even). */
export function gbpOfTaoRao(taoRao: bigint, price: GbpPrice): Decimal {
  return new CgtDecimal(taoRao.toString())
    .div(RAO_PER_UNIT)
    .mul(price.gbp)
    .toDecimalPlaces(GBP_PLACES, Decimal.ROUND_HALF_EVEN);
}

/** Alpha RAO in TAO RAO at a block's pool price (root: the same amount); null without a price. */
export function taoRaoAt(stakes: StakesAtBlock, netuid: number, alphaRao: bigint): bigint | null {
  if (netuid === 0) return alphaRao;
  const subnet = stakes.subnets.get(netuid);
  return valueInTaoRao(alphaRao, poolReserves(subnet?.taoRao ?? null, subnet?.alphaInRao ?? null));
}

/**
 * Income rows for every position and every day after `opening` (each day's start is the day before's end),
 * days with nothing received left out. `eventBlocks` lists, per position id, the blocks whose events touch it.
 */
export function incomeLedger(
  positions: readonly PositionRef[],
  opening: LedgerDay,
  days: readonly LedgerDay[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
  eventBlocks: ReadonlyMap<string, readonly number[]>,
  prices: GbpPrices,
): IncomeRow[] {
  const at = (block: number) => {
    const found = stakes.get(block);
    if (!found) throw new Error(`income ledger: no stake read at block ${block}`);
    return found;
  };
  const rows: IncomeRow[] = [];
  let previous = opening;
  for (const day of days) {
    const end = at(day.block);
    const start = at(previous.block);
    for (const position of positions) {
      const id = positionId(position);
      let received = (end.stake.get(id) ?? 0n) - (start.stake.get(id) ?? 0n);
      for (const block of eventBlocks.get(id) ?? []) {
        if (block <= previous.block || block > day.block) continue;
        received -= (at(block).stake.get(id) ?? 0n) - (at(block - 1).stake.get(id) ?? 0n);
      }
      if (received === 0n) continue;
      const taoRao = taoRaoAt(end, position.netuid, received);
      const gbpPrice = prices.on(day.date);
      rows.push({
        date: day.date,
        position,
        registeredAt: position.netuid === 0 ? 0 : (end.subnets.get(position.netuid)?.registeredAt ?? 0),
        alphaRao: received,
        taoRao,
        gbp: taoRao === null || gbpPrice === null ? null : gbpOfTaoRao(taoRao, gbpPrice),
        priceBlock: day.block,
        gbpPrice,
      });
    }
    previous = day;
  }
  return rows;
}
