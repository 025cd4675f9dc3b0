/**
 * Staking income per position and UK day. Bittensor emits no event per reward: a position's stake grows as
 * its hotkey's share pool grows. So a day's income is the stake growth that no event explains:
 *
 *   received = stake at the day's last block − stake at the previous day's last block
 *              − Σ over the blocks of that day with an event touching the position (stake after − before)
 *
 * in alpha RAO (TAO on root), exact. When the subnet's registration changes during the day (deregistered,
 * perhaps registered again), each registration gets its own row: the old one loses its stake (a negative
 * row, valued at its last pool price), the new one receives what it holds at the end less its events. The event blocks are measured on the chain (stake at the block and at
 * the block before), so a stake, unstake, move or transfer, whatever its amounts and rounding, never counts
 * as income. A day can be negative (a deregistration, a slash): it is kept as such, never netted away.
 * Valued at receipt (HMRC CRYPTO21200): alpha × the subnet pool's price at the day's last block
 * (`SubnetTAO ÷ SubnetAlphaIn`, truncated to the RAO) × the TAO/GBP rate at the day's end (`gbp-prices.ts`).
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
  /** The registration of the subnet whose stake this is (0 on root): the day's last block's, or an earlier one lost that day. */
  registeredAt: number;
  /** Received that day: alpha RAO (TAO RAO on root); negative for a loss. */
  alphaRao: bigint;
  /** Its value in TAO RAO at the day's pool price; null when the subnet has no pool price that day. */
  taoRao: bigint | null;
  /** Its value in pounds; null without a pool price. */
  gbp: Decimal | null;
  /** The block whose pool price was used. */
  priceBlock: number;
  /** The TAO/GBP rate at the day's end (an older one, flagged, when that one is missing). */
  gbpPrice: GbpPrice;
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

/** The registration of a position's subnet at a block (0 on root, and when the chain records none). */
function registrationAt(stakes: StakesAtBlock, netuid: number): number {
  return netuid === 0 ? 0 : (stakes.subnets.get(netuid)?.registeredAt ?? 0);
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
    // Looked up only when the day has something to value: a day with no income needs no rate.
    let dayPrice: GbpPrice | undefined;
    const gbpPriceOfDay = () => {
      dayPrice ??= prices.on(day.date);
      return dayPrice;
    };
    for (const position of positions) {
      const id = positionId(position);
      // Per registration of the subnet: a netuid deregistered (and perhaps registered again) during the
      // day holds two assets, and the old one's stake is lost on the old one, never on its successor.
      const received = new Map<number, { rao: bigint; priceAt: StakesAtBlock }>();
      const add = (stakes: StakesAtBlock, rao: bigint) => {
        const registeredAt = registrationAt(stakes, position.netuid);
        const entry = received.get(registeredAt) ?? { rao: 0n, priceAt: stakes };
        entry.rao += rao;
        // Valued at the last block that still shows this registration (the day's end when it survives).
        if (stakes.block >= entry.priceAt.block) entry.priceAt = stakes;
        received.set(registeredAt, entry);
      };
      add(start, -(start.stake.get(id) ?? 0n));
      for (const block of eventBlocks.get(id) ?? []) {
        if (block <= previous.block || block > day.block) continue;
        const after = at(block);
        add(after, -((after.stake.get(id) ?? 0n) - (at(block - 1).stake.get(id) ?? 0n)));
      }
      add(end, end.stake.get(id) ?? 0n);
      for (const [registeredAt, { rao, priceAt }] of received) {
        if (rao === 0n) continue;
        const taoRao = taoRaoAt(priceAt, position.netuid, rao);
        const gbpPrice = gbpPriceOfDay();
        rows.push({
          date: day.date,
          position,
          registeredAt,
          alphaRao: rao,
          taoRao,
          gbp: taoRao === null ? null : gbpOfTaoRao(taoRao, gbpPrice),
          priceBlock: priceAt.block,
          gbpPrice,
        });
      }
    }
    previous = day;
  }
  return rows;
}
