/** Typed failures of the emissions watch, so the command line can say what went wrong in one line. */
export class EmissionsError extends Error {
  override name = 'EmissionsError';
}

/** Another process held the emissions DuckDB file for longer than we were willing to wait. */
export class EmissionsDbLockedError extends EmissionsError {
  override name = 'EmissionsDbLockedError';
  constructor(
    readonly path: string,
    cause: string,
  ) {
    super(`emissions database ${path} is in use by another process (${cause}); try again shortly`);
  }
}

/** A published emissions document does not match its contract schema; nothing was published. */
export class EmissionsSnapshotInvalidError extends EmissionsError {
  override name = 'EmissionsSnapshotInvalidError';
}
