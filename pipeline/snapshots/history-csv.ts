import { HISTORY_CSV_COLUMNS } from '../contract/subnet-history.js';
import type { HistoryRowValue } from './build-snapshots.js';

/**
 * RFC 4180 CSV of a history: CRLF line ends, a header row, the same values as the JSON, an empty
 * field for null. No field can hold a comma, quote or line break, so none needs quoting.
 */
export function renderHistoryCsv(rows: HistoryRowValue[]): string {
  const lines = [HISTORY_CSV_COLUMNS.join(',')];
  for (const row of rows) {
    lines.push(
      [row.date, row.alpha.text, row.burns, row.tao?.text ?? '', row.unpriced_burns, row.partial_day].join(
        ',',
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
