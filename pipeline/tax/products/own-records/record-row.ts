/**
 * One row of an uploaded file as its reader sees it: trimmed cells by column, read into numbers and times,
 * each problem reported at the row's line and the column's name as the format's documentation writes it
 * (`Sent Amount`, not `sent amount`), so the buyer finds the cell.
 */
import type { Decimal } from 'decimal.js';
import type { CsvRecord } from '../../../csv/read-csv.js';
import type { ReportNote, ReportProblem } from './input-problems.js';
import { type DateOrder, readAmount, readRecordTime } from './record-values.js';

export class RecordRow {
  /** True once any problem of this row was reported. */
  failed = false;
  readonly line: number;

  constructor(
    private readonly record: CsvRecord,
    private readonly display: (column: string) => string,
    private readonly report: ReportProblem,
    private readonly context: { dateOrder?: DateOrder; note?: ReportNote } = {},
  ) {
    this.line = record.line;
  }

  /** Something the buyer should check about this row, which is read all the same (a point to check). */
  note(text: string): void {
    this.context.note?.(this.line, text, this.at);
  }

  /** The row's time once read (`time`), for its notes. */
  private at: Date | undefined;

  /** The cell trimmed; '' when empty or when the file has no such column. */
  text(column: string): string {
    return (this.record.values[column] ?? '').trim();
  }

  /** The column's name as the buyer reads it. */
  columnName(column: string): string {
    return this.display(column);
  }

  problem(column: string | null, reason: string): void {
    this.failed = true;
    this.report(this.line, column === null ? null : this.display(column), reason);
  }

  /** A plain decimal or null (empty); undefined when refused (reported). */
  amount(column: string, positive: boolean): Decimal | null | undefined {
    const read = readAmount(this.text(column), positive);
    if (read.ok) return read.value;
    this.problem(column, read.reason);
    return undefined;
  }

  /** As `amount`, but an empty cell is a problem too: `why` says why the value is needed. */
  required(column: string, positive: boolean, why: string): Decimal | undefined {
    const value = this.amount(column, positive);
    if (value === null) this.problem(column, `is empty: ${why}`);
    return value ?? undefined;
  }

  time(column: string): Date | undefined {
    const read = readRecordTime(this.text(column), this.context.dateOrder);
    if (read.ok) {
      this.at = read.value;
      return read.value;
    }
    this.problem(column, read.reason);
    return undefined;
  }
}
