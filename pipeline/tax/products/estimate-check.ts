/**
 * The tax check's figures (the body of `GET /tax/check.json`) from one chain read and what the pipeline
 * published. Pure: the caller supplies the holdings, the yields, the prices, the event count and the instant.
 *
 * Method, in the order of the fields:
 * - `root_tao`: stake on netuid 0 (root's alpha is TAO). `alpha_as_tao`: each alpha position × its
 *   pool's price `SubnetTAO / SubnetAlphaIn` at the same block, truncated to the RAO per position (a
 *   subnet without a pool values at 0). `staked_tao` = the two; `free_tao`: `System.Account` free.
 * - `yield_root`: the network's root yield. `yield_alpha`: the yields of the subnets held, weighted by
 *   the TAO value of the holding in each; a held subnet with no published yield (null, missing, or the
 *   netuid now belongs to a later registration) takes the all-subnet alpha yield instead; holding no
 *   alpha, the all-subnet figure itself. `yield`: root and alpha blended by value (the root yield when
 *   nothing is staked). Yields are simple annual rates from the share-price growth of the last 7 days.
 * - `income_tao` = staked_tao × yield × (now − the window's start) ÷ (the UK tax year's length): today's
 *   stake as if held over `income_window` at today's yield. The window starts at 6 April 00:00 London, or,
 *   when the published record (tax/calendar.json) starts later in the year, at the end of the record's first
 *   UK day, where the pack's record opens: the check then measures the same days as the pack instead of
 *   extrapolating over days nobody collected. A stated estimate (`income_basis:
 *   current_price_estimate`), not the income actually received. `income_gbp` = income_tao × tao_gbp;
 *   `tax40`, `tax42`, `tax45`, `tax48` = 40%, 42%, 45%, 48% of it (England's higher and additional rates,
 *   Scotland's higher, advanced and top); `staked_gbp` = staked_tao × tao_gbp. `tao_gbp_at`: the quote's
 *   day at 00:00 UTC (a day's price is its first quote at or after then).
 *
 * Arithmetic: RAO as bigint; everything after in decimal.js at 40 significant digits, rounded once at
 * rendering. Rendering: the TAO amounts read from the chain are exact to the RAO (9 decimals); the
 * published yields and prices are repeated as published; every computed figure (yield_alpha, yield,
 * income_tao, income_gbp, tax40, tax45, staked_gbp) is rounded half-to-even to 15 significant digits,
 * which a JSON number (an IEEE double) carries without loss. Display rounding (pence) is the reader's.
 *
 * `mechanisms`: what the coldkey's events of this tax year and the last ran beside plain staking, and what the
 * pack does with each (`check-mechanisms.ts`), from the same published shard as `events`.
 */
import { Decimal } from 'decimal.js';
import { ExactDecimal, encodeValidJson } from '../../amounts/exact-json.js';
import { poolReserves, valueInTaoRao } from '../../amounts/pool-price.js';
import { RAO_PER_UNIT, raoToDecimal } from '../../amounts/rao.js';
import { TaxCheck } from '../../contract/tax-check.js';
import type { ColdkeyEvent, TaxYields } from '../../contract/tax-published.js';
import { ukDay, ukDayEndMs } from '../../time/uk-day.js';
import { type UkTaxYear, ukTaxYearOf } from '../../time/uk-tax-year.js';
import { addDays } from '../../time/utc-day.js';
import type { HeldSubnetPool, StakePosition } from '../chain-record/read-coldkey-holdings.js';
import type { LatestTaoPrices } from '../uk-rules/latest-tao-price.js';
import { checkMechanisms } from './check-mechanisms.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export const CHECK_SIGNIFICANT_DIGITS = 15;
const TAX_RATES = {
  tax40: new D('0.40'),
  tax42: new D('0.42'),
  tax45: new D('0.45'),
  tax48: new D('0.48'),
} as const;

/** What the estimate cannot do without: the gateway answers 503 with this message. */
export class EstimateUnavailableError extends Error {
  override name = 'EstimateUnavailableError';
}

export interface CheckHoldings {
  positions: readonly StakePosition[];
  freeRao: bigint;
  pools: ReadonlyMap<number, HeldSubnetPool>;
}

export interface CheckInputs {
  /** The canonical address (from `parseColdkey`). */
  coldkey: string;
  holdings: CheckHoldings;
  yields: TaxYields;
  prices: LatestTaoPrices;
  /** The coldkey's staking events in the tax year of `nowMs`. */
  events: number;
  /** The coldkey's collected events of every year (its list in its published shard), for `mechanisms`. */
  coldkeyEvents: readonly ColdkeyEvent[];
  /** The collected events of the account of the coldkey's own EVM address (staking through the EVM), if any. */
  ownEvmEvents?: readonly ColdkeyEvent[];
  nowMs: number;
  /** The published record's first UK day (tax/calendar.json); null when none is published. */
  recordFirstDay: string | null;
}

/** Where the income estimate starts: 6 April, or the end of the record's first day when that is later. */
export function incomeWindowStart(
  year: UkTaxYear,
  recordFirstDay: string | null,
): { ms: number; firstDay: string } {
  if (recordFirstDay === null || recordFirstDay < year.firstDay || recordFirstDay > year.lastDay) {
    return { ms: year.startMs, firstDay: year.firstDay };
  }
  return { ms: ukDayEndMs(recordFirstDay), firstDay: addDays(recordFirstDay, 1) };
}

/** The figures with every amount as `ExactDecimal`, ready for `renderCheck`. */
export type CheckFigures = {
  [K in keyof TaxCheck]: K extends 'events'
    ? number
    : TaxCheck[K] extends number
      ? ExactDecimal
      : TaxCheck[K];
};

export function estimateCheck(inputs: CheckInputs): CheckFigures {
  const { holdings, yields, prices } = inputs;
  const rootYield = yields.root.yield;
  const allAlphaYield = yields.alpha.yield;
  if (rootYield === null || allAlphaYield === null) {
    throw new EstimateUnavailableError(
      'The network staking yield is not computed yet (it needs two collected days); try again after the next daily run.',
    );
  }
  if (!prices.gbp || !prices.usd) {
    throw new EstimateUnavailableError(
      'No TAO price has been published yet; try again after the next daily run.',
    );
  }

  let rootRao = 0n;
  const alphaValueByNetuid = new Map<number, bigint>();
  for (const position of holdings.positions) {
    if (position.netuid === 0) {
      rootRao += position.stakeRao;
      continue;
    }
    const pool = holdings.pools.get(position.netuid);
    const price = pool ? poolReserves(pool.taoRao, pool.alphaInRao) : null;
    const value = valueInTaoRao(position.stakeRao, price) ?? 0n;
    alphaValueByNetuid.set(position.netuid, (alphaValueByNetuid.get(position.netuid) ?? 0n) + value);
  }
  const alphaRao = [...alphaValueByNetuid.values()].reduce((sum, value) => sum + value, 0n);
  const stakedRao = rootRao + alphaRao;

  const alpha = alphaYield(alphaValueByNetuid, holdings.pools, yields, alphaRao);
  const root = new D(rootYield);
  const blended =
    stakedRao === 0n
      ? root
      : root
          .times(tao(rootRao))
          .plus(alpha.value.times(tao(alphaRao)))
          .div(tao(stakedRao));

  const year = ukTaxYearOf(inputs.nowMs);
  const start = incomeWindowStart(year, inputs.recordFirstDay);
  const elapsed = new D(Math.max(0, inputs.nowMs - start.ms)).div(year.endMs - year.startMs);
  const today = ukDay(inputs.nowMs);
  const taoGbp = new D(prices.gbp.value);
  const incomeTao = tao(stakedRao).times(blended).times(elapsed);
  const incomeGbp = incomeTao.times(taoGbp);
  const empty = holdings.positions.length === 0 && holdings.freeRao === 0n;
  const found = checkMechanisms(
    inputs.coldkey,
    inputs.coldkeyEvents,
    inputs.nowMs,
    inputs.recordFirstDay,
    inputs.ownEvmEvents,
  );

  return {
    state: empty ? 'empty' : 'ok',
    coldkey: inputs.coldkey,
    staked_tao: raoToDecimal(stakedRao),
    root_tao: raoToDecimal(rootRao),
    alpha_as_tao: raoToDecimal(alphaRao),
    free_tao: raoToDecimal(holdings.freeRao),
    events: inputs.events,
    tax_year: year.label,
    yield: rendered(blended),
    yield_root: published(root),
    yield_alpha: rendered(alpha.value),
    yield_source: yields.source,
    alpha_yield_source: alpha.source,
    tao_gbp: published(taoGbp),
    tao_gbp_at: `${prices.gbp.date}T00:00:00Z`,
    tao_usd: published(new D(prices.usd.value)),
    income_tao: rendered(incomeTao),
    income_gbp: rendered(incomeGbp),
    income_basis: 'current_price_estimate',
    income_window: { from: start.firstDay <= today ? start.firstDay : today, to: today },
    yield_window: { from: yields.window.from, to: yields.window.to },
    tax40: rendered(incomeGbp.times(TAX_RATES.tax40)),
    tax42: rendered(incomeGbp.times(TAX_RATES.tax42)),
    tax45: rendered(incomeGbp.times(TAX_RATES.tax45)),
    tax48: rendered(incomeGbp.times(TAX_RATES.tax48)),
    staked_gbp: rendered(tao(stakedRao).times(taoGbp)),
    mechanisms: found.mechanisms,
    mechanism_window: found.window,
  };
}

/** The JSON body of a check, validated against the contract (what is validated is what is served). */
export function renderCheck(figures: CheckFigures): string {
  const encoded = encodeValidJson(TaxCheck, figures);
  // Only a bug can make the figures invalid; the message names fields, never the coldkey's value.
  if (!encoded.ok) throw new Error(`tax check does not match the contract: ${encoded.problem}`);
  return new TextDecoder().decode(encoded.bytes);
}

/**
 * The value-weighted alpha yield of the held subnets and where it came from: `<source>` when every held
 * subnet had its own yield, `<source>+all-subnets` when some took the all-subnet figure, and
 * `<source>:all-subnets` when no alpha is held (or none has a value) and the all-subnet figure is used.
 */
function alphaYield(
  valueByNetuid: ReadonlyMap<number, bigint>,
  pools: ReadonlyMap<number, HeldSubnetPool>,
  yields: TaxYields,
  alphaRao: bigint,
): { value: Decimal; source: string } {
  const all = new D(yields.alpha.yield!);
  if (alphaRao === 0n) return { value: all, source: `${yields.source}:all-subnets` };
  let weighted = new D(0);
  const sources = new Set<string>();
  let fellBack = false;
  for (const [netuid, valueRao] of valueByNetuid) {
    if (valueRao === 0n) continue;
    const registeredAt = pools.get(netuid)?.registeredAt;
    const own = yields.subnets.find(
      (subnet) => subnet.netuid === netuid && subnet.registered_at === registeredAt && subnet.yield !== null,
    );
    if (own) sources.add(own.source);
    else fellBack = true;
    weighted = weighted.plus(tao(valueRao).times(own ? new D(own.yield!) : all));
  }
  const named = sources.size > 0 ? [...sources].sort().join('+') : yields.source;
  return { value: weighted.div(tao(alphaRao)), source: fellBack ? `${named}+all-subnets` : named };
}

function tao(rao: bigint): Decimal {
  return new D(rao.toString()).div(RAO_PER_UNIT.toString());
}

/** A computed figure: 15 significant digits, half to even, plain notation. */
function rendered(value: Decimal): ExactDecimal {
  return new ExactDecimal(value.toSignificantDigits(CHECK_SIGNIFICANT_DIGITS).toFixed());
}

/** A published figure (a yield or a price), repeated as published. */
function published(value: Decimal): ExactDecimal {
  return new ExactDecimal(value.toFixed());
}
