/** Something wrong in an input file, at the line where its row starts (the header is line 1). */
export interface CsvProblem {
  line: number;
  text: string;
}

/**
 * An input file refused as a whole: an import stores nothing of a file with any problem. `problems` lists
 * every one found, not just the first, in line order as `line N: …`; the message's first line counts them.
 */
export class CsvRejectedError extends Error {
  override name = 'CsvRejectedError';
  readonly problems: string[];

  constructor(what: string, problems: readonly CsvProblem[]) {
    const lines = [...problems].sort((a, b) => a.line - b.line).map((p) => `line ${p.line}: ${p.text}`);
    const count = lines.length === 1 ? '1 problem' : `${lines.length} problems`;
    super(`${what} rejected, nothing imported: ${count}\n  ${lines.join('\n  ')}`);
    this.problems = lines;
  }
}

/**
 * For a command line, which prints only the first line of an error: each problem of a rejected file goes
 * to `write` as a line of its own before the error travels on.
 */
export async function listingProblems<T>(work: Promise<T>, write: (text: string) => void): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof CsvRejectedError) for (const problem of error.problems) write(`${problem}\n`);
    throw error;
  }
}
