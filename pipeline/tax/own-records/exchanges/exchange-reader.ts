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
  /** Lower-case names of columns of amounts written with a currency sign (`£1,500.00`). */
  money?: ReadonlySet<string>;
  /** The file's records; problems are reported on the rows (a row with one is `failed`). */
  read: (rows: readonly RecordRow[], source: string) => OwnRecord[];
}
