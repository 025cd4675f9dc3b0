/**
 * The input of `sbm tax cgt`: a CSV file with the header `datetime,asset,action,quantity,gbp` (any column
 * order; a pack's optional `fee_gbp`, `kind` and `counterparty` are read, other columns ignored), one transaction a row. Each transaction's ref is `line N`, the line its row
 * starts on, so that the engine's own refusals (a disposal of more than is held) name the line too.
 */
import { readCsv } from '../../../csv/read-csv.js';
import { CgtDecimal } from './cgt-decimal.js';
import { CGT_ROW_KINDS, CgtInputError, type CgtRowKind, type CgtTransaction } from './cgt-types.js';
import { parseCgtDatetime } from './parse-cgt-datetime.js';

export const CGT_CSV_COLUMNS = ['datetime', 'asset', 'action', 'quantity', 'gbp'] as const;

/** Plain decimals only: digits with an optional fraction, an optional leading minus (refused with a reason). */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The file's transactions, or a `CgtInputError` for the first problem in line order; its message says how
 * many more there are, so one line tells the whole story.
 */
export function readCgtCsv(text: string): CgtTransaction[] {
  return readCgtCsvWithOpening(text).transactions;
}

/**
 * As `readCgtCsv`, and the instant the pack's record opens: a pack whose coldkeys held nothing then writes
 * a marker row (kind `opening`, quantity 0) so that a buyer's opening pools stand where the pack put them.
 */
export function readCgtCsvWithOpening(text: string): {
  transactions: CgtTransaction[];
  openingAt: Date | null;
  /** The file's column names, lower case (an older pack's file has no `kind`). */
  columns: string[];
} {
  const table = readCsv(text, CGT_CSV_COLUMNS);
  const problems = table.problems.map((p) => ({ line: p.line, text: p.text }));
  const transactions: CgtTransaction[] = [];
  let openingAt: Date | null = null;
  for (const { line, values } of table.records) {
    const problem = (text: string) => problems.push({ line, text });
    const field = (name: (typeof CGT_CSV_COLUMNS)[number]) => (values[name] ?? '').trim();
    if ((values['kind'] ?? '').trim() === 'opening' && /^0+(\.0+)?$/.test(field('quantity'))) {
      const at = parseCgtDatetime(field('datetime'));
      if (at) openingAt = at;
      else problem(`datetime "${field('datetime')}" is not an ISO 8601 date or date and time`);
      continue;
    }

    const at = parseCgtDatetime(field('datetime'));
    if (!at) problem(`datetime "${field('datetime')}" is not an ISO 8601 date or date and time`);
    const asset = field('asset');
    if (asset === '') problem('asset is empty');
    const action = field('action').toLowerCase();
    if (action !== 'acquire' && action !== 'dispose') {
      problem(`action "${field('action')}" is not acquire or dispose`);
    }
    const quantity = decimalField(field('quantity'), 'quantity', true, problem);
    const gbp = decimalField(field('gbp'), 'gbp', false, problem);
    // A pack's cgt-input.csv also says what each row stands for (its opening, its transfers and with whom),
    // so that a buyer's own files combine with it as they did in the pack.
    const kind = (values['kind'] ?? '').trim();
    if (kind !== '' && !CGT_ROW_KINDS.includes(kind as CgtRowKind)) {
      problem(`kind "${kind}" is not one of ${CGT_ROW_KINDS.join(', ')}`);
    }
    const counterparty = (values['counterparty'] ?? '').trim();
    const feeText = (values['fee_gbp'] ?? '').trim();
    const fee = feeText === '' ? null : decimalField(feeText, 'fee_gbp', false, problem);
    if (fee && action !== 'dispose') problem('fee_gbp is given with a disposal only');
    if (at && asset !== '' && (action === 'acquire' || action === 'dispose') && quantity && gbp) {
      transactions.push({
        at,
        asset,
        action,
        quantity,
        gbp,
        ref: `line ${line}`,
        ...(fee && !fee.isZero() ? { fee } : {}),
        ...(kind !== '' ? { kind: kind as CgtRowKind } : {}),
        ...(counterparty !== '' ? { counterparty } : {}),
      });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  const [first] = problems;
  if (first) {
    const more = problems.length - 1;
    const tail = more === 0 ? '' : ` (and ${more} more ${more === 1 ? 'problem' : 'problems'})`;
    throw new CgtInputError(`line ${first.line}`, `${first.text}${tail}`);
  }
  openingAt ??= transactions.find((tx) => tx.kind === 'opening')?.at ?? null;
  return { transactions, openingAt, columns: table.header };
}

function decimalField(
  text: string,
  name: string,
  positive: boolean,
  problem: (text: string) => void,
): InstanceType<typeof CgtDecimal> | null {
  if (!PLAIN_DECIMAL.test(text)) {
    problem(
      `${name} "${text}" is not a plain decimal (digits, an optional point, no exponent or separators)`,
    );
    return null;
  }
  const value = new CgtDecimal(text);
  if (positive && !value.gt(0)) {
    problem(`${name} ${text} must be greater than zero`);
    return null;
  }
  if (value.lt(0)) {
    problem(`${name} ${text} must not be negative`);
    return null;
  }
  return value;
}
