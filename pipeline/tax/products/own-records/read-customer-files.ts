/**
 * One upload of the buyer's files, read and checked whole: either every file is accepted and the order's
 * inputs grow by them, or `CustomerInputsRejected` lists every problem (file, line, column, reason) and
 * nothing of the upload is kept. Pure: no chain, no storage, no logging (the files are the buyer's
 * financial data); the caller stores what this returns.
 *
 * Checks of each file as a whole come first, cheapest first: its size (a 50 MB upload is refused on its
 * length, before it is hashed or decoded), then whether it is a file the order already has (same SHA-256:
 * the same export uploaded twice would count every trade twice), then its encoding, then its rows.
 */
import { createHash } from 'node:crypto';
import { unsafeCell } from './cell-safety.js';
import {
  type CustomerFile,
  type CustomerInputs,
  CustomerInputsRejected,
  EMPTY_CUSTOMER_INPUTS,
  type OpeningPools,
  type OwnAddress,
  type OwnRecord,
  type RecordNote,
  type UploadedFile,
} from './customer-inputs.js';
import { InputProblems } from './input-problems.js';
import { overlappingRecords } from './overlapping-records.js';
import { readOpeningPools } from './read-opening-pools.js';
import { readOwnAddresses } from './read-own-addresses.js';
import { readOwnRecords } from './read-own-records.js';
import { MAX_RECORD_ROWS, readUploadTable, refuseDuplicates } from './upload-table.js';
import { MAX_UPLOAD_BYTES, tooLarge, uploadText } from './upload-text.js';

export { MAX_UPLOAD_BYTES, MAX_RECORD_ROWS };

/** Bytes of one upload, all its files together. */
export const MAX_UPLOAD_TOTAL_BYTES = 8 * 1024 * 1024;
/** Files in one upload. */
export const MAX_UPLOAD_FILES = 10;
/** Characters of a file's name (it is listed in the PDF). */
export const MAX_FILE_NAME_CHARS = 120;
/** The `file` of a problem of the upload as a whole (too many files, too many bytes together). */
export const WHOLE_UPLOAD = 'the upload';

export function readCustomerFiles(
  files: readonly UploadedFile[],
  previous: CustomerInputs = EMPTY_CUSTOMER_INPUTS,
): CustomerInputs {
  const problems = new InputProblems();
  if (files.length === 0)
    problems.add({ file: WHOLE_UPLOAD, line: 0, column: null, reason: 'no file was given' });
  if (files.length > MAX_UPLOAD_FILES) {
    problems.add({
      file: WHOLE_UPLOAD,
      line: 0,
      column: null,
      reason: `${files.length} files in one upload; at most ${MAX_UPLOAD_FILES}`,
    });
  }
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > MAX_UPLOAD_TOTAL_BYTES) {
    problems.add({
      file: WHOLE_UPLOAD,
      line: 0,
      column: null,
      reason: `the files come to ${(total / 1048576).toFixed(1)} MiB together; one upload may be at most ${MAX_UPLOAD_TOTAL_BYTES / 1048576} MiB (upload them in turn)`,
    });
  }
  if (problems.count > 0) throw new CustomerInputsRejected(problems.listed());

  const accepted: CustomerFile[] = [];
  const records: OwnRecord[] = [];
  const addresses: OwnAddress[] = [];
  const notes: RecordNote[] = [];
  let opening: OpeningPools | null = previous.opening;
  let openingFile = previous.opening
    ? (previous.files.find((f) => f.role === 'opening')?.name ?? 'an earlier file')
    : null;
  const hashes = new Map(previous.files.map((file) => [file.sha256, file.name]));

  for (const [index, file] of files.entries()) {
    const nameProblem = fileNameProblem(file.name);
    if (nameProblem !== null) {
      // Not named by its own name, which is what is refused.
      problems.add({ file: `file ${index + 1}`, line: 0, column: null, reason: nameProblem });
      continue;
    }
    const report = problems.of(file.name);
    // The size before anything that reads every byte.
    if (file.bytes.length > MAX_UPLOAD_BYTES) {
      report(0, null, tooLarge(file.bytes.length));
      continue;
    }
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    const same = hashes.get(sha256);
    if (same !== undefined) {
      report(0, null, `the same file was already added (${same})`);
      continue;
    }
    hashes.set(sha256, file.name);
    if (file.role === 'opening' && openingFile !== null) {
      report(0, null, `an opening is already given (${openingFile}): an order starts from one set of pools`);
      continue;
    }
    const decoded = uploadText(file.bytes);
    if (!decoded.ok) {
      report(0, null, decoded.reason);
      continue;
    }
    const table = readUploadTable(decoded.text, report);
    if (table === null) continue;
    const base = { name: file.name, sha256, rows: table.rows.length, role: file.role };
    if (file.role === 'records') {
      const fileNotes: RecordNote[] = [];
      const read = readOwnRecords(file.name, table, report, (line, text, at) =>
        fileNotes.push({ file: file.name, line, text, ...(at ? { at } : {}) }),
      );
      if (read === null) continue;
      // A point is listed on its row's UK day (an identical row's, that of the row it repeats).
      const atOf = new Map(read.records.map((r) => [r.line, r.at]));
      notes.push(...fileNotes.map((n) => (n.at || !atOf.has(n.line) ? n : { ...n, at: atOf.get(n.line)! })));
      records.push(...read.records);
      accepted.push({ ...base, format: read.format });
    } else if (!refuseDuplicates(table, report)) {
    } else if (file.role === 'addresses') {
      const read = readOwnAddresses(table, [...previous.addresses, ...addresses], report);
      if (read === null) continue;
      addresses.push(...read);
      accepted.push({ ...base, format: null });
    } else {
      const read = readOpeningPools(table, report);
      if (read === null) continue;
      opening = read;
      openingFile = file.name;
      accepted.push({ ...base, format: null });
    }
  }
  if (problems.count > 0) throw new CustomerInputsRejected(problems.listed());
  return {
    files: [...previous.files, ...accepted],
    records: [...previous.records, ...records],
    addresses: [...previous.addresses, ...addresses],
    opening,
    notes: [...(previous.notes ?? []), ...notes, ...overlappingRecords(previous.records, records)],
  };
}

/** The name is shown in the PDF and the order page: the same rules as a cell, and a bounded length. */
function fileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'the file has no name';
  if ([...name].length > MAX_FILE_NAME_CHARS)
    return `the file's name is longer than ${MAX_FILE_NAME_CHARS} characters: rename it`;
  const unsafe = unsafeCell(name, false);
  return unsafe === null ? null : `the file's name ${unsafe}: rename it`;
}
