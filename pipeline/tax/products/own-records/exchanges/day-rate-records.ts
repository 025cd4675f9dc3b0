/**
 * The records of an exchange that trades TAO against USDT, BTC and other currencies rather than pounds
 * (KuCoin, Bybit, OKX, Gate, MEXC). Such an export gives no value in pounds for a trade, a reward or a fee
 * in TAO: each is booked with `gbp` 0 and `valueAtDayRate`, and is valued where the records meet the pack's
 * prices at the TAO/GBP rate of its UK day (the market value of the TAO itself, which HMRC accepts for a
 * trade of one token for another). A trade against GBP, where an exchange has one, keeps its pounds.
 *
 * A fee paid in USDT, BTC or the exchange's own token (KCS, GT, MX, OKB) is kept with its quantity but at
 * £0: the pack has no rate for that currency, so the fee is not allowed (the gain is at most that fee
 * higher than it would be; the buyer's adviser can add it).
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import { isFiat, pooledAsset } from '../record-asset.js';
import type { RecordRow } from '../record-row.js';
import { readAmount, readRecordTime } from '../record-values.js';

export type Draft = Pick<
  OwnRecord,
  'kind' | 'asset' | 'quantity' | 'gbp' | 'fee' | 'valueAtDayRate' | 'counter' | 'feeInside'
>;

export interface Leg {
  /** The exchange's code, upper case (`TAO`, `USDT`). */
  asset: string;
  quantity: Decimal;
}

/** The pooled name (`TAO`) of an exchange's code, or null for any other token or currency. */
export function pooled(code: string): string | null {
  return pooledAsset(code);
}

/**
 * A trade of a pooled token (TAO, or a subnet's alpha) against `quote`: bought (`buy`) or sold.
 * `token.quantity` is the token traded before any fee; `fee` what the exchange took, in whatever it was
 * taken.
 */
export function quotedTrade(side: 'buy' | 'sell', token: Leg, quote: Leg, fee: Leg | null): Draft {
  const asset = pooled(token.asset)!;
  const inPounds = quote.asset === 'GBP';
  const feeAsset = fee === null ? null : (pooled(fee.asset) ?? fee.asset);
  const paid =
    fee === null || fee.quantity.isZero()
      ? null
      : {
          asset: feeAsset!,
          quantity: fee.quantity,
          // In pounds: a GBP fee is itself; a TAO fee at the trade's own price.
          gbp: !inPounds
            ? new CgtDecimal(0)
            : feeAsset === 'GBP'
              ? fee.quantity
              : feeAsset === asset
                ? fee.quantity.times(quote.quantity).div(token.quantity)
                : new CgtDecimal(0),
        };
  return {
    kind: side,
    asset,
    quantity: token.quantity,
    gbp: inPounds ? quote.quantity : new CgtDecimal(0),
    fee: paid,
    ...(inPounds
      ? {}
      : { valueAtDayRate: true as const, counter: { asset: quote.asset, quantity: quote.quantity } }),
  };
}

/**
 * A withdrawal written as one row with the exchange's fee inside its amount: the fee is found when it pairs
 * with the chain's arrival (`feeInside`), and valued at the day's rate.
 */
export function withdrawalWithFeeInside(asset: string, quantity: Decimal): Draft {
  return {
    kind: 'withdrawal',
    asset: pooled(asset)!,
    quantity,
    gbp: null,
    fee: null,
    feeInside: true,
    valueAtDayRate: true,
  };
}

/** TAO received as a staking or earn reward: valued at the day's rate. */
export function reward(asset: string, quantity: Decimal): Draft {
  return {
    kind: 'income',
    asset: pooled(asset)!,
    quantity,
    gbp: new CgtDecimal(0),
    fee: null,
    valueAtDayRate: true,
  };
}

/** TAO arriving at or leaving the exchange; a fee in TAO is a disposal valued at the day's rate. */
export function movement(
  kind: 'deposit' | 'withdrawal',
  asset: string,
  quantity: Decimal,
  fee: Decimal | null,
): Draft {
  const name = pooled(asset)!;
  if (fee === null || fee.isZero()) return { kind, asset: name, quantity, gbp: null, fee: null };
  return {
    kind,
    asset: name,
    quantity,
    gbp: null,
    fee: { asset: name, quantity: fee, gbp: new CgtDecimal(0) },
    valueAtDayRate: true,
  };
}

/**
 * A signed plain decimal; undefined when refused (reported on the row). An empty cell is 0, or, where the
 * row must give the amount, refused with `emptyReason`.
 */
export function signedAmount(row: RecordRow, column: string, emptyReason?: string): Decimal | undefined {
  const text = row.text(column);
  const negative = text.startsWith('-');
  const read = readAmount(negative ? text.slice(1) : text, false);
  if (!read.ok) {
    row.problem(column, read.reason);
    return undefined;
  }
  if (read.value === null && emptyReason !== undefined) {
    row.problem(column, emptyReason);
    return undefined;
  }
  const value = read.value ?? new CgtDecimal(0);
  return negative ? value.negated() : value;
}

/** A quantity the row needs (greater than zero, sign ignored); undefined when refused (reported). */
export function quantity(row: RecordRow, column: string): Decimal | undefined {
  const value = signedAmount(row, column);
  if (value === undefined) return undefined;
  if (value.isZero()) {
    row.problem(column, 'is zero or empty: the row needs its quantity');
    return undefined;
  }
  return value.abs();
}

/**
 * The row's instant from a time written without a zone in the clock `offset` (`+08:00`, `Z` for UTC): an
 * export that states its clock in its header (`Time(UTC+08:00)`) writes its cells without one.
 */
export function timeAt(row: RecordRow, column: string, offset: string): Date | undefined {
  const text = row.text(column);
  const read = readRecordTime(/(Z|[+-]\d{2}:?\d{2}|UTC|GMT)$/i.test(text) ? text : `${text}${offset}`);
  if (read.ok) return read.value;
  row.problem(column, read.reason);
  return undefined;
}

/**
 * The names a header may give the column `base` with the clock it is written in: `base`, `base(UTC)` and
 * `base(UTC+08:00)` for every offset in use, lower case as the table keeps them, with the offset each
 * stands for (`base` alone: `plain`).
 */
export function zonedColumns(base: string, plain: string): Array<{ column: string; offset: string }> {
  const out = [
    { column: base, offset: plain },
    { column: `${base}(utc)`, offset: 'Z' },
  ];
  for (let minutes = -12 * 60; minutes <= 14 * 60; minutes += 15) {
    const sign = minutes < 0 ? '-' : '+';
    const abs = Math.abs(minutes);
    const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    out.push({ column: `${base}(utc${offset})`, offset });
    // As OKX writes a whole hour: UTC+8.
    if (abs % 60 === 0) out.push({ column: `${base}(utc${sign}${abs / 60})`, offset });
  }
  return out;
}

/** The column of `candidates` the rows have (the first with any cell filled), or null. */
export function presentColumn<T extends { column: string }>(
  rows: readonly RecordRow[],
  candidates: readonly T[],
): T | null {
  return candidates.find((c) => rows.some((row) => row.text(c.column) !== '')) ?? null;
}

/** Why a row of another token is refused. */
export function otherToken(code: string, exchange: string): string {
  return `${code.slice(0, 20) || '(empty)'} is not read: the pack pools TAO and subnet alpha; remove the rows of other tokens from the ${exchange} export (they are not part of the TAO pool)`;
}

/** Money (GBP, EUR) moved in or out: it books nothing. */
export function isMoney(code: string): boolean {
  return isFiat(code);
}
