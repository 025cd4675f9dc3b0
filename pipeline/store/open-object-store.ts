import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3Settings } from '../config.js';
import { FolderObjectStore } from './folder-store.js';
import type { ObjectStore } from './object-store.js';
import { S3ObjectStore } from './s3-store.js';
import { UnsupportedStoreUrlError } from './store-errors.js';

/** What `SBM_STORE_URL` names, parsed but not opened. */
export type StoreLocation = { kind: 'folder'; root: string } | { kind: 's3'; bucket: string; prefix: string };

/**
 * Parses a store URL:
 * - `file:./data/snapshots`, `file:data/snapshots`, `file:/srv/snapshots`: a folder, relative paths
 *   resolved against `cwd`;
 * - `file:///srv/snapshots`: a folder, as a standard file URL;
 * - `s3://bucket` or `s3://bucket/some/prefix`: keys go under `some/prefix/` in `bucket`.
 */
export function parseStoreUrl(url: string, cwd: string = process.cwd()): StoreLocation {
  if (url.startsWith('file://')) {
    let root: string;
    try {
      root = fileURLToPath(url);
    } catch (error) {
      throw new UnsupportedStoreUrlError(
        `store URL "${url}" is not a local file URL (use file:///absolute/path or file:./relative/path)`,
        { cause: error },
      );
    }
    return { kind: 'folder', root };
  }
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    if (path === '') throw new UnsupportedStoreUrlError('store URL "file:" names no folder');
    return { kind: 'folder', root: isAbsolute(path) ? resolve(path) : resolve(cwd, path) };
  }
  if (url.startsWith('s3://')) {
    const rest = url.slice('s3://'.length);
    const slash = rest.indexOf('/');
    const bucket = slash < 0 ? rest : rest.slice(0, slash);
    const path = slash < 0 ? '' : rest.slice(slash + 1);
    // Bucket naming rules shared by AWS and radosgw: 3-63 of lower-case letters, digits, dots, hyphens.
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new UnsupportedStoreUrlError(`store URL "${url}" has no valid bucket name (s3://bucket/prefix)`);
    }
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments.some((segment) => segment === '.' || segment === '..')) {
      throw new UnsupportedStoreUrlError(`store URL "${url}" has a "." or ".." in its prefix`);
    }
    return { kind: 's3', bucket, prefix: segments.length === 0 ? '' : `${segments.join('/')}/` };
  }
  throw new UnsupportedStoreUrlError(
    `unsupported store URL "${url}": use file:<folder> (e.g. file:./data/snapshots) or s3://<bucket>/<prefix>`,
  );
}

/** Opens the store a URL names; S3 settings come from the standard AWS variables (see `readS3Settings`). */
export function openObjectStore(url: string, s3: S3Settings): ObjectStore {
  const location = parseStoreUrl(url);
  if (location.kind === 'folder') return new FolderObjectStore(location.root);
  return new S3ObjectStore({ bucket: location.bucket, prefix: location.prefix, settings: s3 });
}
