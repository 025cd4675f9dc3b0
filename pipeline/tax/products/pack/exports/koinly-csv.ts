/**
 * `koinly.csv`: Koinly's universal import template. Dates are UTC (`YYYY-MM-DD HH:mm:ss UTC`); the net worth
 * is the pack's value in pounds, so Koinly takes it rather than its own price. Labels: `staking` for income,
 * `gift` for holdings taken at market value, `lost` for stake gone for nothing, `cost` for other disposals
 * that are not exchanges; trades and transfers carry none.
 */
import { KOINLY_COLUMNS } from '../../tax-tool-columns.js';
import { csv, rowsOf } from '../csv-text.js';
import { exportAsset } from './export-asset.js';
import type { ExportRecord } from './export-records.js';
import { legPoundsText, legQuantityText } from './leg-text.js';

export function koinlyDate(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function label(record: ExportRecord): string | null {
  switch (record.kind) {
    case 'staking-income':
      return 'staking';
    case 'income':
      return 'income';
    case 'acquired-at-market-value':
      return 'gift';
    case 'disposed':
      return record.sell!.gbp.isZero() ? 'lost' : 'cost';
    // Koinly has no claim: its nearest label (a disposal, with no reacquisition).
    case 'negligible-value-claim':
      return 'lost';
    default:
      return null;
  }
}

export function koinlyCsv(records: readonly ExportRecord[]): string {
  // A day's income records share their instant: each instant's text is made once.
  const dates = new Map<number, string>();
  const date = (at: Date) =>
    dates.get(at.getTime()) ?? dates.set(at.getTime(), koinlyDate(at)).get(at.getTime())!;
  return csv(
    KOINLY_COLUMNS,
    rowsOf(records, (record) => {
      // A trade is worth what was received (the pack's proceeds and cost); a one-sided record its own leg;
      // a trade against pounds the pounds.
      const worth = (record.buy ?? record.sell)!;
      return [
        date(record.at),
        record.sell ? legQuantityText(record.sell) : null,
        record.sell ? exportAsset(record.sell.asset) : null,
        record.buy ? legQuantityText(record.buy) : null,
        record.buy ? exportAsset(record.buy.asset) : null,
        record.fee ? legQuantityText(record.fee) : null,
        record.fee ? exportAsset(record.fee.asset) : null,
        legPoundsText(worth),
        'GBP',
        label(record),
        `${record.note} [${record.ref}]`,
        null,
      ];
    }),
  );
}
