/**
 * What DuckDB's "Could not set lock on file" error says about the process holding the file. DuckDB lets
 * one process write a file or any number of processes read it, never both at once: a reader is refused
 * while `sbm collect` (or `daily`, `prices`, `claims`) writes, and a writer is refused while anyone reads.
 * The error names the holder's PID and, when the holder only reads, says so; we turn that into a sentence
 * an analyst or an operator can act on.
 */
export interface LockConflict {
  /** The holding process, when DuckDB names it. */
  holderPid: number | null;
  /** The holder opened the file read-only (an analyst's session, a publish); otherwise it may write. */
  holderReadsOnly: boolean;
}

export function parseLockConflict(duckdbMessage: string): LockConflict {
  const pid = /\(PID (\d+)\)/.exec(duckdbMessage)?.[1];
  return {
    holderPid: pid === undefined ? null : Number(pid),
    // DuckDB adds "you would be able to open this database in read-only mode" only when the holder reads.
    holderReadsOnly: /read-only mode/i.test(duckdbMessage),
  };
}

/** One line: who holds the file, how long we waited, what to do. */
export function describeLockConflict(what: string, conflict: LockConflict, waitedMs: number): string {
  const pid = conflict.holderPid === null ? '' : ` (PID ${conflict.holderPid})`;
  const waited = `waited ${waitedMs / 1000} s`;
  if (conflict.holderReadsOnly) {
    return (
      `${what} is open read-only in another process${pid}, such as an analyst's session (duckdb, Python, sbm sql) ` +
      `and cannot be written until it closes; ${waited}; close that session and run again`
    );
  }
  return (
    `${what} is being written by another process${pid}: sbm collect, daily, prices or claims (or a duckdb ` +
    `session opened without -readonly); ${waited}; try again when it has finished`
  );
}
