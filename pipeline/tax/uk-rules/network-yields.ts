/**
 * The network's chain-derived staking yield: how much a staker who does nothing earned, per subnet, from the
 * growth of its hotkeys' share prices over the last 7 complete UTC days (fewer where fewer are collected).
 *
 * A hotkey pool holds A alpha against S shares (the chain's denominator, a SafeFloat: `SharePool.totalShares`);
 * one share is worth A/S. The shares a pool held at the end of one day (A0, S0) are worth A1·S0/S1 at the end
 * of the next, so a subnet's growth factor over that day is
 *   f = Σ A1·S0/S1 ÷ Σ A0        over pools with A0, S0, S1 > 0 on both days, in the same subnet registration,
 * and its growth over the window is the product of its days' factors, less one: a time-weighted return, chained
 * day by day so that a pool that appears or moves inside the window (a new validator, a hotkey swap, which
 * re-issues every holder's stake on the new hotkey: `swap/swap_hotkey.rs`) still counts on the days it has.
 * Its yield is the simple annual rate: growth ÷ the days that had a factor × 365. Root (netuid 0) is the same
 * in TAO. The all-subnet alpha yield weights each subnet's rate by its stake at the window's start valued in TAO
 * at its pool price then (W_s = Σ A0 · SubnetTAO/SubnetAlphaIn): Σ_s rate_s·W_s ÷ Σ_s W_s.
 *
 * Exactness: each pool's A1·S0/S1 is carried as an integer of 2^-96 RAO (floored: off by less than 2^-96 RAO
 * per pool), the factors are multiplied as exact fractions of bigints, and each rate is one division in 50
 * significant digits.
 */
import { Decimal } from 'decimal.js';
import { type PoolReserves, poolReserves } from '../../amounts/pool-price.js';
import { isZeroShares, scaledShareRatio } from '../../amounts/safe-float.js';
import type { SharePool } from '../../chain/share-pools.js';
import type { SubnetYield, TaxYields } from '../../contract/tax-published.js';
import { epochDay } from '../../time/utc-day.js';

/** Fixed-point scale of the per-pool values: 2^-96 RAO. */
const SCALE_BITS = 96n;
const Precise = Decimal.clone({ precision: 50 });
/** Days a yield looks back over at most. */
export const YIELD_WINDOW_DAYS = 7;

export interface YieldWindow {
  from: string;
  to: string;
  days: number;
}

/** A subnet registration's pool reserves at the window's start (a day's panel), for valuing stake in TAO. */
export interface StartReserves {
  netuid: number;
  registeredAt: number;
  subnetTaoRao: bigint | null;
  subnetAlphaInRao: bigint | null;
}

export interface NetworkYieldInputs {
  window: YieldWindow;
  /** Pools at the end of `window.from`. */
  start: readonly SharePool[];
  /** Pools at the end of each day read strictly between `window.from` and `window.to`, in date order. */
  between?: ReadonlyArray<{ date: string; pools: readonly SharePool[] }>;
  /** Pools at the end of `window.to`. */
  end: readonly SharePool[];
  /** Panel reserves at the end of `window.from`. */
  startReserves: readonly StartReserves[];
  computedAt: Date;
}

/**
 * The window over `poolDays` (complete days whose pools were read at their last block, any order): it ends
 * with the latest and starts with the earliest of them at most 7 days before it. Null without any day.
 */
export function yieldWindow(poolDays: readonly string[]): YieldWindow | null {
  const sorted = [...poolDays].sort();
  const to = sorted[sorted.length - 1];
  if (to === undefined) return null;
  const earliest = epochDay(to) - YIELD_WINDOW_DAYS;
  const from = sorted.find((day) => epochDay(day) >= earliest) ?? to;
  return { from, to, days: epochDay(to) - epochDay(from) };
}

/** `tax/yields.json` from the pools of the window's days. */
export function networkYields(inputs: NetworkYieldInputs): TaxYields {
  const { window } = inputs;
  const source = `chain:share-price:${window.from}..${window.to}`;
  const reserves = new Map(inputs.startReserves.map((r) => [subnetKey(r.netuid, r.registeredAt), r]));
  const days = [
    { date: window.from, pools: inputs.start },
    ...(inputs.between ?? []),
    { date: window.to, pools: inputs.end },
  ];

  interface SubnetGrowth {
    netuid: number;
    registeredAt: number;
    /** The product of the day factors as one fraction (both sides in 2^-96 RAO per factor). */
    numerator: bigint;
    denominator: bigint;
    /** Days that had a factor. */
    days: number;
    /** Σ A0 at the window's start, of the pools that go on to its next day. */
    stake: bigint;
  }
  const subnets = new Map<string, SubnetGrowth>();
  const subnetOf = (pool: SharePool) => {
    const key = subnetKey(pool.netuid, pool.registeredAt);
    const found = subnets.get(key) ?? {
      netuid: pool.netuid,
      registeredAt: pool.registeredAt,
      numerator: 1n,
      denominator: 1n,
      days: 0,
      stake: 0n,
    };
    subnets.set(key, found);
    return found;
  };
  // The stake a window starts with: the start pools that go on to the next day read (the end itself for a
  // window of no days).
  const next = new Map(days[1]!.pools.map((pool) => [poolKey(pool), pool]));
  for (const start of inputs.start) {
    const following = next.get(poolKey(start));
    if (!following || start.totalAlphaRao <= 0n || isZeroShares(start.totalShares)) continue;
    if (isZeroShares(following.totalShares)) continue;
    subnetOf(start).stake += start.totalAlphaRao;
  }
  for (let i = 1; i < days.length; i++) {
    const [before, after] = [days[i - 1]!, days[i]!];
    if (after.date <= before.date) continue; // a window of one day (from = to) has no day of growth
    const previous = new Map(before.pools.map((pool) => [poolKey(pool), pool]));
    const day = new Map<SubnetGrowth, { worth: bigint; held: bigint }>();
    for (const end of after.pools) {
      const subnet = subnetOf(end);
      // Same hotkey, same netuid, same registration: a pool of a netuid registered anew is another pool.
      const start = previous.get(poolKey(end));
      if (
        !start ||
        start.totalAlphaRao <= 0n ||
        isZeroShares(start.totalShares) ||
        isZeroShares(end.totalShares)
      )
        continue;
      const sums = day.get(subnet) ?? { worth: 0n, held: 0n };
      sums.worth += scaledShareRatio(end.totalAlphaRao, start.totalShares, end.totalShares, SCALE_BITS);
      sums.held += start.totalAlphaRao << SCALE_BITS;
      day.set(subnet, sums);
    }
    for (const [subnet, { worth, held }] of day) {
      subnet.numerator *= worth;
      subnet.denominator *= held;
      subnet.days += epochDay(after.date) - epochDay(before.date);
    }
  }

  const rows: SubnetYield[] = [];
  let alphaWeighted = new Precise(0);
  let alphaWeight = 0n;
  let alphaStakeTao = 0n;
  let root: TaxYields['root'] = { yield: null, stake_rao: '0' };
  const listed = new Set(inputs.end.map((pool) => subnetKey(pool.netuid, pool.registeredAt)));
  for (const subnet of [...subnets.values()]
    .filter((s) => listed.has(subnetKey(s.netuid, s.registeredAt)))
    .sort((a, b) => a.netuid - b.netuid || a.registeredAt - b.registeredAt)) {
    // Root's stake is TAO already.
    const price =
      subnet.netuid === 0 ? ROOT_PRICE : priceOf(reserves.get(subnetKey(subnet.netuid, subnet.registeredAt)));
    const stakeTao = price === null ? 0n : (subnet.stake * price.taoRao) / price.alphaInRao;
    const rate = annualRate(subnet);
    rows.push({
      netuid: subnet.netuid,
      registered_at: subnet.registeredAt,
      yield: rate === null ? null : rate.toNumber(),
      window,
      stake_rao: subnet.stake.toString(),
      stake_tao_rao: stakeTao.toString(),
      source,
    });
    if (subnet.netuid === 0) {
      root = { yield: rate === null ? null : rate.toNumber(), stake_rao: subnet.stake.toString() };
    } else if (price !== null && rate !== null && stakeTao > 0n) {
      alphaWeighted = alphaWeighted.plus(rate.times(stakeTao.toString()));
      alphaWeight += stakeTao;
      alphaStakeTao += stakeTao;
    } else if (price !== null) {
      alphaStakeTao += stakeTao;
    }
  }
  return {
    computed_at: inputs.computedAt.toISOString(),
    window,
    source,
    root,
    alpha: {
      yield: alphaWeight > 0n ? alphaWeighted.div(alphaWeight.toString()).toNumber() : null,
      stake_tao_rao: alphaStakeTao.toString(),
    },
    subnets: rows,
  };
}

/** (Π factors − 1) ÷ days × 365 in 50 significant digits; null without a day of growth. */
function annualRate(subnet: { numerator: bigint; denominator: bigint; days: number }): Decimal | null {
  if (subnet.days <= 0 || subnet.denominator <= 0n) return null;
  return new Precise((subnet.numerator - subnet.denominator).toString())
    .times(365)
    .div(new Precise(subnet.denominator.toString()).times(subnet.days));
}

const ROOT_PRICE: PoolReserves = { taoRao: 1n, alphaInRao: 1n };

/** A subnet without a pool price at the start has stake that cannot be valued: it stays out of the alpha figure. */
function priceOf(reserves: StartReserves | undefined): PoolReserves | null {
  return reserves ? poolReserves(reserves.subnetTaoRao, reserves.subnetAlphaInRao) : null;
}

function poolKey(pool: SharePool): string {
  return `${pool.netuid}/${pool.registeredAt}/${pool.hotkey}`;
}

function subnetKey(netuid: number, registeredAt: number): string {
  return `${netuid}/${registeredAt}`;
}
