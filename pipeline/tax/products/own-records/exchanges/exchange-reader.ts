/** What each exchange export's reader gives `readExchangeExport`. */
import type { OwnRecord } from '../customer-inputs.js';
import type { RecordRow } from '../record-row.js';
import type { ExchangeFormat } from './exchange-format.js';

export interface ExchangeExport {
  format: ExchangeFormat;
  /** As the exchange names the file ("Kraken ledgers"). */
  title: string;
  /** Every column, as the exchange spells it. */
  columns: readonly string[];
  /** Lower-case names that must all be present for the header to be this export's. */
  required: readonly string[];
  numeric: ReadonlySet<string>;
  /**
   * False for an export that gives a row no id of its own (MEXC's trade history: one row per fill, no fill
   * id): identical rows there are fills of one order at one price, kept and listed as a point to check.
   * Otherwise every row carries its transaction's id and an identical row is that transaction given twice.
   */
  rowIds?: false;
  /** Lower-case names of columns of amounts written with a currency sign (`£1,500.00`). */
  money?: ReadonlySet<string>;
  /**
   * The file's records; problems are reported on the rows (a row with one is `failed`). `titles`: the lines
   * above the header, where an exchange writes them (OKX names its clock there).
   */
  read: (rows: readonly RecordRow[], source: string, titles: readonly string[]) => OwnRecord[];
}
