/**
 * The network's chain-derived staking yield: how much a staker who does nothing earned, per subnet, from the
 * growth of its hotkeys' share prices over the last 7 complete UTC days (fewer where fewer are collected).
 *
 * A hotkey pool holds A alpha against S shares (the chain's denominator, a SafeFloat: `SharePool.totalShares`);
 * one share is worth A/S. The shares a staker held at the end
 * of the window's first day (A0, S0) are worth A1·S0/S1 at the end of its last, so the pool's growth is
 * A1·S0/S1 − A0. A subnet's growth rate weights its pools by their stake at the start:
 *   g = Σ (A1·S0/S1 − A0) / Σ A0        over pools with A0, S0, S1 > 0 in the same subnet registration,
 * and its yield is the simple annual rate g ÷ days × 365. Root (netuid 0) is the same in TAO. The all-subnet
 * alpha yield weights each subnet by its start stake valued in TAO at its pool price at the window's start:
 *   Σ_s g_s·W_s / Σ_s W_s  with W_s = Σ A0 · SubnetTAO/SubnetAlphaIn,  which is  Σ_s N_s·p_s / Σ_s D_s·p_s.
 *
 * Exactness: each pool's A1·S0/S1 is carried as an integer of 2^-96 RAO (floored: off by less than 2^-96 RAO
 * per pool), sums stay bigint, and the one division that makes each rate is done in 50 significant digits.
 */
import { Decimal } from 'decimal.js';
import { type PoolReserves, poolReserves } from '../amounts/pool-price.js';
import { isZeroShares, scaledShareRatio } from '../amounts/safe-float.js';
import type { SharePool } from '../chain/share-pools.js';
import type { SubnetYield, TaxYields } from '../contract/tax-published.js';
import { epochDay } from '../time/utc-day.js';

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

/** `tax/yields.json` from the pools at both ends of the window. */
export function networkYields(inputs: NetworkYieldInputs): TaxYields {
  const { window } = inputs;
  const source = `chain:share-price:${window.from}..${window.to}`;
  const startPools = new Map(inputs.start.map((pool) => [poolKey(pool), pool]));
  const reserves = new Map(inputs.startReserves.map((r) => [subnetKey(r.netuid, r.registeredAt), r]));

  const subnets = new Map<string, { netuid: number; registeredAt: number; growth: bigint; stake: bigint }>();
  for (const end of inputs.end) {
    const key = subnetKey(end.netuid, end.registeredAt);
    const subnet = subnets.get(key) ?? {
      netuid: end.netuid,
      registeredAt: end.registeredAt,
      growth: 0n,
      stake: 0n,
    };
    subnets.set(key, subnet);
    // Same hotkey, same netuid, same registration: a pool of a netuid registered anew is another pool.
    const start = startPools.get(poolKey(end));
    if (
      !start ||
      start.totalAlphaRao <= 0n ||
      isZeroShares(start.totalShares) ||
      isZeroShares(end.totalShares)
    )
      continue;
    const worthAtEnd = scaledShareRatio(end.totalAlphaRao, start.totalShares, end.totalShares, SCALE_BITS);
    subnet.growth += worthAtEnd - (start.totalAlphaRao << SCALE_BITS);
    subnet.stake += start.totalAlphaRao;
  }

  const rows: SubnetYield[] = [];
  let alphaGrowth = 0n;
  let alphaWeight = 0n;
  let alphaStakeTao = 0n;
  let root: TaxYields['root'] = { yield: null, stake_rao: '0' };
  for (const subnet of [...subnets.values()].sort((a, b) => a.netuid - b.netuid)) {
    // Root's stake is TAO already.
    const price =
      subnet.netuid === 0 ? ROOT_PRICE : priceOf(reserves.get(subnetKey(subnet.netuid, subnet.registeredAt)));
    const stakeTao = price === null ? 0n : (subnet.stake * price.taoRao) / price.alphaInRao;
    const rate = annualRate(subnet.growth, subnet.stake << SCALE_BITS, window.days);
    rows.push({
      netuid: subnet.netuid,
      registered_at: subnet.registeredAt,
      yield: rate,
      window,
      stake_rao: subnet.stake.toString(),
      stake_tao_rao: stakeTao.toString(),
      source,
    });
    if (subnet.netuid === 0) {
      root = { yield: rate, stake_rao: subnet.stake.toString() };
    } else if (price !== null) {
      alphaGrowth += (subnet.growth * price.taoRao) / price.alphaInRao;
      alphaWeight += ((subnet.stake << SCALE_BITS) * price.taoRao) / price.alphaInRao;
      alphaStakeTao += stakeTao;
    }
  }
  return {
    computed_at: inputs.computedAt.toISOString(),
    window,
    source,
    root,
    alpha: {
      yield: annualRate(alphaGrowth, alphaWeight, window.days),
      stake_tao_rao: alphaStakeTao.toString(),
    },
    subnets: rows,
  };
}

/** growth ÷ weight ÷ days × 365, the one division; null without weight or without a day of growth. */
function annualRate(growth: bigint, weight: bigint, days: number): number | null {
  if (weight <= 0n || days <= 0) return null;
  return new Precise(growth.toString()).times(365).div(new Precise(weight.toString()).times(days)).toNumber();
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
