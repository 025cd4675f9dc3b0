/**
 * The records of an exchange that trades TAO against USDT, BTC and other currencies rather than pounds
 * (Binance, KuCoin, Bybit, OKX, Gate, MEXC). Every asset that is not money is a token with its own pool
 * (HMRC: a stablecoin is a cryptoasset, CRYPTO10100): a trade of TAO for USDT is a disposal of the USDT and an
 * acquisition of the TAO at one value. Such an export gives no value in pounds for a trade, a reward or a
 * fee: each is booked with `gbp` 0 and `valueAtDayRate`, and is valued where the records meet the pack's
 * prices, at the daily GBP rate of its UK day of the side that values it (`trade-value-side.ts`). A trade
 * against GBP, where an exchange has one, keeps its pounds.
 *
 * A fee paid in a third token the prices lack (the exchange's own: KCS, GT, MX, OKB) is kept with its
 * quantity but at £0: it is not allowed (the gain is at most that fee higher than it would be; the buyer's
 * adviser can add it), and the pack says so.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord } from '../customer-inputs.js';
import { isChainAsset, isFiat, pooledAsset, tokenCode } from '../record-asset.js';
import type { RecordRow } from '../record-row.js';
import { readAmount, readRecordTime } from '../record-values.js';
import { valuesBefore } from '../trade-value-side.js';

export type Draft = Pick<
  OwnRecord,
  'kind' | 'asset' | 'quantity' | 'gbp' | 'fee' | 'valueAtDayRate' | 'counter' | 'feeInside'
>;

export interface Leg {
  /** The exchange's code, upper case (`TAO`, `USDT`). */
  asset: string;
  quantity: Decimal;
}

/**
 * The pooled name of an exchange's code: `TAO`, a subnet's alpha as the pack names it, or any other token
 * by its code (`USDT`, `BTC`); null for money (GBP, EUR, USD) and for a code that is no token's.
 */
export function pooled(code: string): string | null {
  return pooledAsset(code) ?? tokenCode(code);
}

/**
 * A trade of a token against `quote` (money or another token): bought (`buy`) or sold. `token.quantity` is
 * the token traded before any fee; `fee` what the exchange took, in whatever it was taken. Between two
 * tokens, the record is of the one valued less surely (TAO) and its counter the other (USDT): the side
 * that gives the trade its value is the counter, as `trade-value-side.ts` orders them.
 */
export function quotedTrade(
  givenSide: 'buy' | 'sell',
  givenToken: Leg,
  givenQuote: Leg,
  fee: Leg | null,
): Draft {
  const swap = pooled(givenQuote.asset) !== null && valuesBefore(givenToken.asset, givenQuote.asset);
  const side = swap ? (givenSide === 'buy' ? 'sell' : 'buy') : givenSide;
  const token = swap ? givenQuote : givenToken;
  const quote = swap ? givenToken : givenQuote;
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
      : {
          valueAtDayRate: true as const,
          counter: { asset: pooled(quote.asset) ?? quote.asset, quantity: quote.quantity },
        }),
  };
}

/**
 * A withdrawal written as one row with the exchange's fee inside its amount: the fee is found when it pairs
 * with the chain's arrival (`feeInside`), and valued at the day's rate.
 */
export function withdrawalWithFeeInside(asset: string, quantity: Decimal): Draft {
  const name = pooled(asset)!;
  // Only a chain token's arrival shows the fee; another token's withdrawal is the amount that left.
  if (!isChainAsset(name)) return { kind: 'withdrawal', asset: name, quantity, gbp: null, fee: null };
  return {
    kind: 'withdrawal',
    asset: name,
    quantity,
    gbp: null,
    fee: null,
    feeInside: true,
    valueAtDayRate: true,
  };
}

/** A token received as a staking or earn reward: income at its daily rate. */
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

/** A token arriving at or leaving the exchange; a fee in it is a disposal valued at the day's rate. */
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

/** Why a row of something that is no token is refused. */
export function otherToken(code: string, exchange: string): string {
  return `${code.slice(0, 20) || '(empty)'} is not read: it is neither a token's code nor a currency; remove its rows from the ${exchange} export, or give them in a plain-format file`;
}

/** Money (GBP, EUR) moved in or out: it books nothing. */
export function isMoney(code: string): boolean {
  return isFiat(code);
}
