/**
 * OKX's funding account bills (Assets → Funding → Bills / "Download" in the funding account's history):
 * `id,Time,Type,Amount,Before Balance,After Balance,Fee,Symbol`, one row per change of one currency's
 * balance in the funding account, where OKX keeps deposits, withdrawals and the rewards of its on-chain
 * earn ("Staking Yield"). `Amount` is signed; `Fee` is the fee taken in that row's currency.
 *
 * - `Deposit`, `Withdrawal` of TAO: a deposit or a withdrawal, its fee a disposal of TAO at the day's rate.
 * - `Staking Yield`: staking income at the day's TAO/GBP rate (`day-rate-records.ts`).
 * - `Stake`, `Redeem staking`, `Savings subscription`, `Savings redemption`, `From unified trading account`,
 *   `To unified trading account` (and the older `To trading account`, `From trading account`) move TAO
 *   between the buyer's own OKX accounts and products: nothing leaves their holdings; they book nothing.
 * - Anything else, and every row of another token, is refused at its line. Trades are in the trading
 *   account's history, not here.
 *
 * Clock: see `okxClock` below (the zone on OKX's line above the header, or named in the `Time` header). The current export has no
 * `Fee` column (a fee, when there is one, is read from it when present).
 */
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import {
  type Draft,
  isMoney,
  movement,
  otherToken,
  pooled,
  presentColumn,
  reward,
  signedAmount,
  timeAt,
  zonedColumns,
} from './day-rate-records.js';
import type { ExchangeExport } from './exchange-reader.js';

const INTERNAL = new Set([
  'stake',
  'redeem staking',
  'savings subscription',
  'savings redemption',
  'from unified trading account',
  'to unified trading account',
  'from trading account',
  'to trading account',
]);

export const OKX_FUNDING: ExchangeExport = {
  format: 'okx',
  title: 'OKX funding account bills',
  columns: ['id', 'Time', 'Type', 'Amount', 'Before Balance', 'After Balance', 'Fee', 'Symbol'],
  required: ['type', 'amount', 'before balance', 'after balance', 'symbol'],
  numeric: new Set(['amount', 'before balance', 'after balance', 'fee']),
  read: readOkxFunding,
};

/**
 * The clock of an OKX file: the zone its `Time` column's header names (`Time(UTC+08:00)`, `Time(UTC)`), else
 * the account's zone that OKX writes on the line above the header (`Time Zone:UTC+8`). A plain `Time` with
 * neither is refused (on the first row) rather than guessed, since a wrong clock moves rows across UK days.
 */
export function okxClock(
  rows: readonly RecordRow[],
  titles: readonly string[],
): { column: string; offset: string } | null {
  const zoned = presentColumn(rows, zonedColumns('time', 'Z').slice(1));
  if (zoned) return zoned;
  const named = titles.join(',').match(/time\s*zone\s*:\s*UTC\s*([+-]\d{1,2})?(?::?(\d{2}))?/i);
  if (named && presentColumn(rows, [{ column: 'time' }])) {
    const hours = Number(named[1] ?? '0');
    const minutes = named[2] ?? '00';
    const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:${minutes}`;
    return { column: 'time', offset: offset === '+00:00' ? 'Z' : offset };
  }
  rows[0]?.problem(
    'time',
    "does not name its time zone: OKX writes the account's zone on the line above the header (Time Zone:UTC+8); keep that line, or name the zone in this column's header, as Time(UTC+08:00), or Time(UTC) for UTC+0",
  );
  return null;
}

function readOkxFunding(rows: readonly RecordRow[], source: string, titles: readonly string[]): OwnRecord[] {
  const clock = okxClock(rows, titles);
  if (clock === null) return [];
  const records: OwnRecord[] = [];
  for (const row of rows) {
    const at = timeAt(row, clock.column, clock.offset);
    const draft = at === undefined ? undefined : readRow(row);
    if (at !== undefined && draft && !row.failed)
      records.push({ source, line: row.line, at, wallet: 'OKX', ...draft });
  }
  return records;
}

function readRow(row: RecordRow): Draft | undefined {
  const type = row.text('type').toLowerCase();
  if (INTERNAL.has(type)) return undefined;
  const known = type === 'deposit' || type === 'withdrawal' || type === 'staking yield';
  if (!known) {
    row.problem(
      'type',
      `"${row.text('type').slice(0, 40)}" is not read: OKX funding rows read are Deposit, Withdrawal, Staking Yield and moves between OKX's own accounts (Stake, Redeem staking, Savings, To/From unified trading account); give this one in a plain-format file if it moved TAO, and remove it here`,
    );
    return undefined;
  }
  const code = row.text('symbol').toUpperCase();
  const amount = signedAmount(row, 'amount');
  const fee = signedAmount(row, 'fee');
  if (amount === undefined || fee === undefined) return undefined;
  if (pooled(code) === null) {
    if (isMoney(code) && type !== 'staking yield') return undefined;
    row.problem('symbol', otherToken(code, 'OKX'));
    return undefined;
  }
  if (type === 'staking yield') {
    if (amount.isPositive()) return reward(code, amount);
    row.problem(
      'amount',
      'a staking yield that is not positive is not read: remove it, or give it in a plain-format file',
    );
    return undefined;
  }
  const out = type === 'withdrawal';
  if (amount.isZero() || amount.isNegative() !== out) {
    row.problem(
      'amount',
      `a ${type} whose amount is ${out ? 'not negative' : 'not positive'} (a reversed one) is not read: remove it and its original row`,
    );
    return undefined;
  }
  return movement(out ? 'withdrawal' : 'deposit', code, amount.abs(), fee.abs());
}
