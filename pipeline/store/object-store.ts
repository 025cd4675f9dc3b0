/**
 * Where published bytes live. Two real implementations sit behind this interface: a local folder
 * (the embedded default) and any S3-compatible bucket. Keys are `/`-separated relative paths
 * (see `object-key.ts`); a `put` is atomic per object: a reader sees the old bytes or the new ones,
 * never a mix. Nothing here is transactional across objects; `publication.ts` builds that on top.
 */
export interface ObjectStore {
  /** For logs and error messages, e.g. `folder /srv/data/snapshots` or `s3://bucket/prefix/`. */
  readonly description: string;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or `null` when no object has that key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Every key that starts with `prefix` (a plain string prefix, as in S3), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes the keys; keys that do not exist are ignored. */
  delete(keys: string[]): Promise<void>;
  /** Releases connections (S3); the store must not be used afterwards. */
  close(): Promise<void>;
}
