/** The store's public surface: what the snapshot builder, the emissions watch and the gateway import. */
export { FolderObjectStore } from './folder-store.js';
export { type Manifest, type ManifestEntry, manifestKey, readManifest, type StoredForm } from './manifest.js';
export type { ObjectStore } from './object-store.js';
export { openObjectStore, parseStoreUrl, type StoreLocation } from './open-object-store.js';
export {
  type CompressionEffort,
  compressForm,
  ENCODING_SUFFIX,
  MIN_PRECOMPRESS_BYTES,
  PRECOMPRESSED_ENCODINGS,
  type PrecompressedEncoding,
} from './precompress.js';
export {
  DEFAULT_KEEP_RUNS,
  type PublishedObject,
  type PublishRunInput,
  type PublishRunResult,
  pruneRuns,
  publishRun,
  type ReadPublishedOptions,
  type RunObject,
  readPublishedForm,
  readPublishedObject,
  runsPrefix,
  sha256Hex,
} from './publication.js';
export { newRunVersion } from './run-version.js';
export { type RunCommit, type RunWriter, type RunWriterOptions, startRun } from './run-writer.js';
export { S3ObjectStore, type S3StoreOptions } from './s3-store.js';
export {
  CorruptRunError,
  InvalidKeyError,
  InvalidManifestError,
  ObjectStoreError,
  UnsupportedStoreUrlError,
} from './store-errors.js';
