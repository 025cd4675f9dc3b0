/**
 * The buyer's own addresses: `address,label`, one a row. Each must be a Bittensor SS58 account (checked
 * as the tax check checks a coldkey, so a seed phrase pasted by mistake is refused with the warning and
 * never quoted back), named by a label that appears in the PDF: at most 64 characters, no formula or
 * markup start. An address given twice, here or in an earlier upload, is refused: two labels for one
 * address would leave the PDF to pick one.
 */
import { parseColdkey } from '../parse-coldkey.js';
import type { OwnAddress } from './customer-inputs.js';
import type { ReportProblem } from './input-problems.js';
import { checkCells, type UploadTable } from './upload-table.js';

export const ADDRESS_COLUMNS = ['address', 'label'] as const;
export const MAX_LABEL_CHARS = 64;

export function readOwnAddresses(
  table: UploadTable,
  known: readonly OwnAddress[],
  report: ReportProblem,
): OwnAddress[] | null {
  const missing = ADDRESS_COLUMNS.filter((name) => !table.header.includes(name));
  if (missing.length > 0) {
    report(1, null, `the header must name the columns address,label (missing: ${missing.join(', ')})`);
    return null;
  }
  if (!checkCells(table, new Set(), (column) => column, report)) return null;
  let ok = true;
  const seen = new Map<string, number>();
  const addresses: OwnAddress[] = [];
  for (const row of table.rows) {
    const problem = (column: string, reason: string) => {
      report(row.line, column, reason);
      ok = false;
    };
    const parsed = parseColdkey(row.values['address'] ?? '');
    const label = (row.values['label'] ?? '').trim();
    if (label === '') problem('label', 'is empty: name the address (for example "Kraken deposit")');
    if ([...label].length > MAX_LABEL_CHARS) {
      problem('label', `is ${[...label].length} characters long; a label is at most ${MAX_LABEL_CHARS}`);
    }
    if (!parsed.ok) {
      // The checker's messages speak of a coldkey; here it is any address of the buyer's.
      problem('address', parsed.message.replace(/^coldkey/, 'the address'));
      continue;
    }
    const earlier = known.find((own) => own.address === parsed.address);
    const first = seen.get(parsed.address);
    if (earlier) problem('address', `is already named as your own ("${earlier.label}")`);
    else if (first !== undefined) problem('address', `is given twice: also on line ${first}`);
    else seen.set(parsed.address, row.line);
    addresses.push({ address: parsed.address, label });
  }
  return ok ? addresses : null;
}
