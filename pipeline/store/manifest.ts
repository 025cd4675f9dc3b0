import { z } from 'zod';
import type { ObjectStore } from './object-store.js';
import { InvalidManifestError } from './store-errors.js';

/** One stored form of an object's bytes: its full store key, SHA-256 and length. */
const storedFormSchema = z.object({
  key: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type StoredForm = z.infer<typeof storedFormSchema>;

/**
 * One published object as the manifest records it; `key` is the full store key of its bytes. A run
 * published with precompression also lists the object's brotli and gzip forms (`encodings`), stored
 * beside it (`<key>.br`, `<key>.gz`); runs published before carry none and are served as they are.
 */
export const manifestEntrySchema = z.object({
  path: z.string().min(1),
  key: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
  content_type: z.string().min(1),
  encodings: z.object({ br: storedFormSchema.optional(), gzip: storedFormSchema.optional() }).optional(),
});
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;

/**
 * The one object that says which run is live. Extra members are the publisher's `meta`
 * (for burns e.g. `burns_checked_at`) and are kept as they were written.
 */
export const manifestSchema = z.looseObject({
  version: z.string().min(1),
  created_at: z.string().min(1),
  objects: z.array(manifestEntrySchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Members `publishRun` writes itself; `meta` may not replace them. */
export const RESERVED_MANIFEST_FIELDS = ['version', 'created_at', 'objects'] as const;

/** `''` → `manifest.json`; `'emissions/'` → `emissions/manifest.json`. */
export function manifestKey(prefix: string): string {
  return `${prefix}manifest.json`;
}

/** The live manifest under `prefix`, or `null` when nothing has been published there yet. */
export async function readManifest(store: ObjectStore, prefix: string): Promise<Manifest | null> {
  const key = manifestKey(prefix);
  const bytes = await store.get(key);
  if (bytes === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new InvalidManifestError(`${store.description}: "${key}" is not JSON`, { cause: error });
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new InvalidManifestError(
      `${store.description}: "${key}" is not a manifest: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
