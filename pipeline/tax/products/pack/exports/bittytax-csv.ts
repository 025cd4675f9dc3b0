/**
 * `bittytax.csv`: the transaction records of BittyTax (its README's columns, in its order). Timestamps are
 * UTC text as BittyTax reads them (`YYYY-MM-DDTHH:MM:SS.000 UTC`); values are pounds to 8 decimal places,
 * so BittyTax takes the pack's values rather than looking prices up.
 */
import { BITTYTAX_COLUMNS } from '../../tax-tool-columns.js';
import { csv, rowsOf } from '../csv-text.js';
import { exportAsset } from './export-asset.js';
import type { ExportKind, ExportLeg, ExportRecord } from './export-records.js';
import { legPoundsText, legQuantityText } from './leg-text.js';

const TYPES: Record<ExportKind, string> = {
  trade: 'Trade',
  'staking-income': 'Staking-Reward',
  income: 'Income',
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  'acquired-at-market-value': 'Gift-Received',
  disposed: 'Spend',
  'negligible-value-claim': 'Lost',
};

/** Deposits and withdrawals carry no value in BittyTax: they move tokens between the user's own wallets. */
const VALUED = (kind: ExportKind) => kind !== 'deposit' && kind !== 'withdrawal';
/** Pounds are money to BittyTax: a trade against them names `GBP` as an asset, with no value of its own. */
const POUNDS = 'GBP';

export function bittytaxTimestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19)}.000 UTC`;
}

export function bittytaxCsv(records: readonly ExportRecord[], wallet: string): string {
  // A day's income records share their instant: each instant's text is made once.
  const timestamps = new Map<number, string>();
  const timestamp = (at: Date) =>
    timestamps.get(at.getTime()) ?? timestamps.set(at.getTime(), bittytaxTimestamp(at)).get(at.getTime())!;
  const quantity = (leg?: ExportLeg) => (leg ? legQuantityText(leg) : null);
  const value = (record: ExportRecord, leg?: ExportLeg) =>
    leg && VALUED(record.kind) ? legPoundsText(leg) : null;
  return csv(
    BITTYTAX_COLUMNS,
    rowsOf(records, (record) => [
      TYPES[record.kind],
      quantity(record.buy),
      record.buy ? exportAsset(record.buy.asset) : null,
      value(record, record.buy),
      quantity(record.sell),
      record.sell ? exportAsset(record.sell.asset) : null,
      value(record, record.sell),
      quantity(record.fee),
      record.fee ? exportAsset(record.fee.asset) : null,
      // A fee always carries its value, so BittyTax never looks a price up (a fee in pounds is its amount).
      record.fee && record.fee.asset !== POUNDS ? legPoundsText(record.fee) : null,
      record.wallet ?? wallet,
      timestamp(record.at),
      `${record.note} [${record.ref}]`,
    ]),
  );
}
