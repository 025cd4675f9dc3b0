/** Typed failures of the object store and of publication, so callers can map them to error answers. */
export class ObjectStoreError extends Error {
  override name = 'ObjectStoreError';
}

/** A key that could escape the store's root or that no backend can hold, e.g. `a/../b`. */
export class InvalidKeyError extends ObjectStoreError {
  override name = 'InvalidKeyError';
}

/** `SBM_STORE_URL` (or whatever the caller passed) names no store we can open. */
export class UnsupportedStoreUrlError extends ObjectStoreError {
  override name = 'UnsupportedStoreUrlError';
}

/** The manifest exists but is not a manifest we wrote. */
export class InvalidManifestError extends ObjectStoreError {
  override name = 'InvalidManifestError';
}

/** An object that a manifest lists is missing or its bytes differ from the recorded hash or size. */
export class CorruptRunError extends ObjectStoreError {
  override name = 'CorruptRunError';
}
