/**
 * Pounds for the rows an exchange export gives none for (`OwnRecord.valueAtDayRate`: a trade of TAO against
 * USDT or BTC, a staking reward, a withdrawal fee in TAO): the TAO quantity at the TAO/GBP rate of the row's
 * UK day (Europe/London), the same published daily rate the pack values the chain's staking income with
 * (`GbpPrices`). HMRC asks for a reasonable valuation by a consistent method where a transaction has no
 * sterling value (CRYPTO23000): one daily rate for every such row and for the income beside them is that
 * method, and the pack lists how many rows it valued so.
 *
 * Done where the records meet the prices (the pack's ledger; `sbm tax cgt --prices`), not when a file is
 * read: an upload is checked long before its pack is built, and the rates are the pack's. Records that the
 * buyer's opening pools already hold (on or before their day) are left as they are: combining leaves them out.
 */
import type { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import { ukTaxYearOf } from '../../../time/uk-tax-year.js';
import { MissingFiatRateError } from '../../uk-rules/gbp-prices.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
  type OwnRecord,
  type RecordNote,
} from './customer-inputs.js';
import { InputProblems } from './input-problems.js';

/** The rate of a UK day's end, pounds per TAO; throws `MissingFiatRateError` when there is none (GbpPrices). */
export interface DayRates {
  on(ukDate: string): { gbp: Decimal };
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
  const wanted = (r: OwnRecord) =>
    r.valueAtDayRate === true && (asAt === null || ukDay(r.at.getTime()) > asAt);
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
    let rate: Decimal;
    try {
      rate = rates.on(day).gbp;
    } catch (error) {
      if (!(error instanceof MissingFiatRateError)) throw error;
      problems.add({
        file: record.source,
        line: record.line,
        column: null,
        reason: `the export gives no value in pounds for this row, and no published TAO/GBP rate is near enough to its UK day ${day} to value it: give it in a plain-format file (time_utc,type,asset,quantity,gbp_value) with its value, and remove it here`,
      });
      return record;
    }
    if (record.asset !== 'TAO') {
      problems.add({
        file: record.source,
        line: record.line,
        column: null,
        reason: `the export gives no value in pounds for this row of ${record.asset}, and only TAO is valued at the day's TAO/GBP rate: give it in a plain-format file (time_utc,type,asset,quantity,gbp_value) with its value, and remove it here`,
      });
      return record;
    }
    const gbp = record.quantity.times(rate);
    // A deposit or withdrawal needs no value of its own: only its fee in TAO is a disposal.
    const moved = record.kind === 'deposit' || record.kind === 'withdrawal';
    const out: OwnRecord = { ...record, gbp: moved ? record.gbp : gbp, dayRate: rate };
    const fee = record.fee;
    if (fee && fee.asset === record.asset) out.fee = { ...fee, gbp: fee.quantity.times(rate) };
    else if (fee && record.counter && fee.asset === record.counter.asset && record.counter.quantity.gt(0)) {
      // A fee in the currency traded against: the trade itself says what that currency was worth in TAO.
      out.fee = { ...fee, gbp: gbp.times(fee.quantity).div(record.counter.quantity) };
    } else if (fee && !fee.quantity.isZero() && fee.gbp.isZero()) {
      // A fee in a third token (an exchange's own: KCS, GT, MX, OKB, BNB) has no price here: it is left out
      // of the costs, never silently, so the gain may be overstated by it.
      unvaluedFees.push(`${record.source} line ${record.line}: ${fee.quantity.toFixed()} ${fee.asset}`);
    }
    const key = `${record.source}\u0000${ukTaxYearOf(record.at.getTime()).label}`;
    valued.set(key, [...(valued.get(key) ?? []), out]);
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
      text: `${rows.length} row(s) of tax year ${ukTaxYearOf(first.at.getTime()).label} (line${lines.length > 1 ? 's' : ''} ${listed}) have no value in pounds in the export (a trade against another currency or token, a reward, a fee in TAO): each is valued at the TAO/GBP rate of its UK day, the daily rate staking income is valued at. Check them against the exchange's own statement if it gives pounds.`,
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
