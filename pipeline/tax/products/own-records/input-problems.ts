/**
 * The problems found in one upload, collected across its files so that the buyer sees every one in a
 * single answer (not one per attempt), yet bounded: a file of 20,000 bad rows must not produce a
 * 20,000-line page or a megabyte of JSON.
 */
import type { InputProblem } from './customer-inputs.js';

/** Problems listed in one answer; past it, one closing line says that more were found. */
export const MAX_PROBLEMS = 50;

export class InputProblems {
  readonly list: InputProblem[] = [];
  private found = 0;

  add(problem: InputProblem): void {
    this.found++;
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
  }

  /** A reporter for one file: `(line, column, reason)`. */
  of(file: string): ReportProblem {
    return (line, column, reason) => this.add({ file, line, column, reason });
  }

  get count(): number {
    return this.found;
  }

  /** The list as given to the buyer: at most MAX_PROBLEMS, and a last line when some were left out. */
  listed(): InputProblem[] {
    if (this.found <= this.list.length) return [...this.list];
    const last = this.list.at(-1)!;
    return [
      ...this.list,
      {
        file: last.file,
        line: 0,
        column: null,
        reason: `${this.found - this.list.length} more problems not listed: correct these and upload again`,
      },
    ];
  }
}

export type ReportProblem = (line: number, column: string | null, reason: string) => void;

/** A point to check about a row that is read all the same: `(line, text, the row's instant when read)`. */
export type ReportNote = (line: number, text: string, at?: Date) => void;
