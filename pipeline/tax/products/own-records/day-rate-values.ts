/**
 * Pounds for the rows an exchange export gives none for (`OwnRecord.valueAtDayRate`: a trade of TAO against
 * USDT or BTC, a staking reward, a fee in a token), and the market value of a token deposited with no record
 * of where it was bought: the quantity of the side that values the row (`trade-value-side.ts`: USDT before
 * TAO) at the GBP rate of the row's UK day (Europe/London) for that asset, the same published daily rates
 * the pack values the chain's staking income with (`GbpPrices`; `tax/fiat-prices.json` carries TAO's and
 * each other asset's). HMRC asks for a reasonable valuation by a consistent method where a transaction has
 * no sterling value (CRYPTO23000): one daily rate per asset for every such row is that method, and the pack
 * lists how many rows it valued so. One trade has one price: a fee paid in either of its tokens is valued at
 * the trade's own price of that token (its value over its quantity), as BittyTax values it.
 *
 * Done where the records meet the prices (the pack's ledger; `sbm tax cgt --prices`), not when a file is
 * read: an upload is checked long before its pack is built, and the rates are the pack's. Records that the
 * buyer's opening pools already hold (on or before their day) are left as they are: combining leaves them out.
 */
import type { Decimal } from 'decimal.js';
import type { TaxFiatPrices } from '../../../contract/tax-published.js';
import { ukDay } from '../../../time/uk-day.js';
import { ukTaxYearOf } from '../../../time/uk-tax-year.js';
import { GbpPrices, MissingFiatRateError } from '../../uk-rules/gbp-prices.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  type OwnRecord,
  type RecordNote,
} from './customer-inputs.js';
import { InputProblems } from './input-problems.js';
import { isChainAsset } from './record-asset.js';
import { valuedSide } from './trade-value-side.js';

/**
 * The rate of a UK day's end, pounds per TAO; throws `MissingFiatRateError` when there is none (GbpPrices).
 * `of`: the same for another asset (`USDT`), null when the prices have no series for it.
 */
export interface DayRates {
  on(ukDate: string): { gbp: Decimal };
  of?(asset: string): DayRates | null;
}

/**
 * TAO's rates (`tao`) with each other asset's daily quotes (`tax/fiat-prices.json` `assets`) as `of`: the
 * same rule for every asset (a UK day takes the quote of its end, or one up to `MAX_RATE_AGE_DAYS` older).
 */
export function withAssetRates<T extends { on(ukDate: string): { gbp: Decimal } }>(
  tao: T,
  assets: Readonly<Record<string, TaxFiatPrices['days']>>,
): T & DayRates {
  const series = new Map<string, GbpPrices>();
  for (const [code, days] of Object.entries(assets)) series.set(code.toUpperCase(), new GbpPrices(days));
  return Object.assign(tao, { of: (asset: string) => series.get(asset.toUpperCase()) ?? null });
}

/** Pounds per `asset` at the end of `day`; null when the prices have none for it near enough. */
function rateOf(rates: DayRates, asset: string, day: string): Decimal | null {
  const series = asset === 'TAO' ? rates : (rates.of?.(asset) ?? null);
  if (series === null) return null;
  try {
    return series.on(day).gbp;
  } catch (error) {
    if (error instanceof MissingFiatRateError) return null;
    throw error;
  }
}

/** Whether the record needs the day's rates: a row the export gives no pounds for, a token's deposit. */
function needsRate(record: OwnRecord): boolean {
  return record.valueAtDayRate === true || (record.kind === 'deposit' && !isChainAsset(record.asset));
}

/** Lines listed in a file's point before "and N more". */
const LINES_LISTED = 8;

/**
 * The inputs with every `valueAtDayRate` record valued. `rates` a text: there are no prices to value with,
 * and each such row is refused with that text (what to give instead). A row whose UK day has no rate is
 * refused at its file and line. One point per file and UK tax year says how many rows were valued so.
 */
export function valueAtDayRates(customer: CustomerInputs, rates: DayRates | string): CustomerInputs {
  const asAt = customer.opening?.asAt ?? null;
  const wanted = (r: OwnRecord) => needsRate(r) && (asAt === null || ukDay(r.at.getTime()) > asAt);
  if (!customer.records.some(wanted)) return customer;
  const problems = new InputProblems();
  const valued = new Map<string, OwnRecord[]>();
  const unvaluedFees: string[] = [];
  const records = customer.records.map((record) => {
    if (!wanted(record)) return record;
    const day = ukDay(record.at.getTime());
    if (typeof rates === 'string') {
      problems.add({ file: record.source, line: record.line, column: null, reason: rates });
      return record;
    }
    // The side that values the row: a trade's counter when it is the surer (USDT for TAO), else the row's own.
    const counter = record.counter?.quantity.gt(0) ? record.counter : null;
    const legs = [{ asset: record.asset, quantity: record.quantity }];
    if (counter) {
      const sold = record.kind === 'sell' ? record.asset : counter.asset;
      const bought = record.kind === 'sell' ? counter.asset : record.asset;
      const first = valuedSide(sold, bought) === 'sold' ? sold : bought;
      if (first === counter.asset) legs.unshift(counter);
      else legs.push(counter);
    }
    let gbp: Decimal | null = null;
    let rate: Decimal | null = null;
    for (const leg of legs) {
      const legRate = rateOf(rates, leg.asset, day);
      if (legRate === null) continue;
      gbp = leg.quantity.times(legRate);
      if (leg.asset === record.asset) rate = legRate;
      break;
    }
    if (gbp === null) {
      const named = legs.map((l) => l.asset).join(' or ');
      problems.add({
        file: record.source,
        line: record.line,
        column: null,
        reason: `the export gives no value in pounds for this row, and no published GBP rate of ${named} is near enough to its UK day ${day} to value it: give it in a plain-format file (time_utc,type,asset,quantity,gbp_value) with its value, and remove it here`,
      });
      return record;
    }
    // The row's own price of its asset, the trade's when it is one (one trade, one price).
    const price = rate ?? gbp.div(record.quantity);
    // A deposit or withdrawal needs no value of its own (a token's deposit keeps its rate, its cost when it
    // came from elsewhere): only its fee in a token is a disposal.
    const moved = record.kind === 'deposit' || record.kind === 'withdrawal';
    const out: OwnRecord = { ...record, gbp: moved ? record.gbp : gbp, dayRate: price };
    const fee = record.fee;
    if (fee && fee.asset === record.asset) out.fee = { ...fee, gbp: fee.quantity.times(price) };
    else if (fee && counter && fee.asset === counter.asset) {
      // A fee in the currency traded against: the trade itself says what that currency was worth.
      out.fee = { ...fee, gbp: gbp.times(fee.quantity).div(counter.quantity) };
    } else if (fee && !fee.quantity.isZero() && fee.gbp.isZero()) {
      // A fee in a third token (an exchange's own: KCS, GT, MX, OKB, BNB): its own rate when the prices
      // have one; else it is left out of the costs, never silently, so the gain may be overstated by it.
      const feeRate = rateOf(rates, fee.asset, day);
      if (feeRate !== null) out.fee = { ...fee, gbp: fee.quantity.times(feeRate) };
      else unvaluedFees.push(`${record.source} line ${record.line}: ${fee.quantity.toFixed()} ${fee.asset}`);
    }
    if (record.valueAtDayRate) {
      const key = `${record.source}\u0000${ukTaxYearOf(record.at.getTime()).label}`;
      valued.set(key, [...(valued.get(key) ?? []), out]);
    }
    return out;
  });
  if (problems.count > 0) throw new CustomerInputsRejected(problems.listed());
  const notes: RecordNote[] = [];
  for (const rows of valued.values()) {
    const first = rows.reduce((a, b) => (b.at < a.at ? b : a));
    const lines = rows.map((r) => r.line).sort((a, b) => a - b);
    const listed =
      lines.length > LINES_LISTED
        ? `${lines.slice(0, LINES_LISTED).join(', ')} and ${lines.length - LINES_LISTED} more`
        : lines.join(', ');
    notes.push({
      file: first.source,
      line: 0,
      at: first.at,
      text: `${rows.length} row(s) of tax year ${ukTaxYearOf(first.at.getTime()).label} (line${lines.length > 1 ? 's' : ''} ${listed}) have no value in pounds in the export (a trade against another currency or token, a reward, a fee in a token): each is valued at the daily GBP rate of its UK day, the rate staking income is valued at, of the side that values it (for a trade of TAO against USDT, USDC, BTC or ETH, that token's rate; else TAO's). Check them against the exchange's own statement if it gives pounds.`,
    });
  }
  if (unvaluedFees.length > 0) {
    notes.push({
      file: records.find((r) => r.valueAtDayRate)?.source ?? '',
      line: 0,
      text: `${unvaluedFees.length} fee(s) paid in a token the pack has no price for were not counted as a cost (${unvaluedFees.slice(0, LINES_LISTED).join('; ')}${unvaluedFees.length > LINES_LISTED ? '; …' : ''}): the gain is higher by their value. To count one, give its trade in a plain-format file with the fee in pounds and remove it here.`,
    });
  }
  return { ...customer, records, notes: [...(customer.notes ?? []), ...notes] };
}
