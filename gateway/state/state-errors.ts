/** Raised when `SBM_STATE_URL` names no engine we can open; the message says which forms work. */
export class StateUrlError extends Error {
  override name = 'StateUrlError';
}

/** Raised when the database holds a schema version newer than this code knows (a downgrade). */
export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}
