/** Typed failures of the warehouse, so the command line can say what went wrong in one line. */
export class WarehouseError extends Error {
  override name = 'WarehouseError';
}

/** Another process (the emissions watch, an analyst) held the file for longer than we were willing to wait. */
export class WarehouseLockedError extends WarehouseError {
  override name = 'WarehouseLockedError';
  constructor(
    readonly path: string,
    cause: string,
  ) {
    super(`warehouse ${path} is in use by another process (${cause}); try again when it has finished`);
  }
}
