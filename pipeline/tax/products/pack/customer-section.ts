/**
 * The PDF's account of what the buyer added for a revised pack: each file used (name, SHA-256, rows), the
 * addresses named as theirs (not read from the chain), the opening the pools started from, and the moves
 * between their own holdings the pack found; or, when nothing was added, how to add it.
 */
import { plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { TaxYearLedger } from '../compute-tax-year.js';
import type { PdfWriter } from './pdf-layout.js';

export function customerSection(w: PdfWriter, ledger: TaxYearLedger): void {
  const { customer, combined } = ledger;
  w.heading('Your records, own addresses and opening pools');
  if (customer.files.length === 0) {
    w.paragraph(
      'None added. The pools hold only what the chain record of these coldkeys shows, opening at market value. ' +
        'On the order page you can add your exchange records (Koinly or BittyTax CSV, or a plain one), the ' +
        "addresses that are yours and last year's pools.csv: the pack is rebuilt at no charge, with one pool " +
        'per token across all of them.',
      { size: 8.5 },
    );
    return;
  }
  w.line(`Files used (${customer.files.length}):`);
  for (const file of customer.files) {
    w.paragraph(
      `- ${file.name}: ${file.role}${file.format ? ` (${file.format})` : ''}, ${file.rows} row${file.rows === 1 ? '' : 's'}, SHA-256 ${file.sha256}`,
      { size: 8 },
    );
  }
  if (customer.addresses.length > 0) {
    w.line(`Addresses named as yours (${customer.addresses.length}):`);
    for (const address of customer.addresses) {
      w.paragraph(`- ${address.label}: ${address.address}`, { size: 8 });
    }
    w.paragraph(
      'A transfer between them and the order\u2019s coldkeys is a move within your holdings: no disposal, no ' +
        'acquisition, the cost stays in the pool. These addresses are not read from the chain: their own ' +
        'history is what your records say.',
      { size: 8.5 },
    );
  }
  const opening =
    combined.opening === 'pools.csv'
      ? `your pools.csv, as the pools stood at the end of ${customer.opening?.asAt}`
      : combined.opening === 'entered'
        ? 'the pools you entered, at the end of the first collected day'
        : 'the chain holdings at market value on the first collected day (no opening pools given)';
  w.line(`Pools opened from: ${opening}`);
  const moves = combined.ownTransfers;
  const matched = moves.filter((move) => move.record !== null).length;
  w.paragraph(
    `Moves between your own holdings: ${moves.length} (${matched} matched with a deposit or withdrawal in your records). ` +
      `Records read: ${customer.records.length}, each in bittytax.csv and koinly.csv with its file and line. ` +
      'cgt-input.csv keeps the chain record alone: `sbm tax cgt cgt-input.csv` with these files as --records, ' +
      '--addresses and --opening gives this pack\u2019s figures.',
    { size: 8.5 },
  );
  const open = ledger.mapping.flags.filter((flag) => flag.kind === 'own-records').length;
  w.paragraph(
    open === 0
      ? 'Still open: nothing from your records (every deposit and withdrawal matched a transfer of the order).'
      : `Still open: ${open} of your records matched nothing (listed under points to check).`,
    { size: 8.5 },
  );
  for (const move of moves.slice(0, 10)) {
    w.paragraph(
      `- ${move.at.toISOString().slice(0, 16)}Z ${move.direction === 'in' ? 'from' : 'to'} ${move.label ?? move.counterparty ?? 'own wallet'}: ${plainDecimal(move.quantity)} ${move.asset}${move.record ? ` (${move.record.source} line ${move.record.line})` : ''}`,
      { size: 8 },
    );
  }
  if (moves.length > 10) w.paragraph(`- ... and ${moves.length - 10} more`, { size: 8 });
}
