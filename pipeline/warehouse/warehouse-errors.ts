/** Typed failures of the warehouse, so the command line can say what went wrong in one line. */
import { describeLockConflict, type LockConflict, parseLockConflict } from './lock-conflict.js';

export class WarehouseError extends Error {
  override name = 'WarehouseError';
}

/**
 * Another process (`sbm collect` or `daily` writing, an analyst's session reading) held the file for longer
 * than we were willing to wait. The message says which kind of holder it was and what to do.
 */
export class WarehouseLockedError extends WarehouseError {
  override name = 'WarehouseLockedError';
  readonly conflict: LockConflict;
  constructor(
    readonly path: string,
    cause: string,
    waitedMs: number,
  ) {
    const conflict = parseLockConflict(cause);
    super(describeLockConflict(`warehouse ${path}`, conflict, waitedMs));
    this.conflict = conflict;
  }
}
