import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { assertValidKey, assertValidPrefix } from './object-key.js';
import type { ObjectStore } from './object-store.js';
import { InvalidKeyError, ObjectStoreError } from './store-errors.js';

/**
 * Writes in progress live here, inside the root so that `rename` stays on one file system (and is
 * therefore atomic), and outside every key, so `list` never returns a half-written object. Files left
 * by a killed writer are harmless and may be removed whenever no publish is running.
 */
export const PARTIAL_FOLDER = '.partial';

/**
 * An object store in a local folder: key `a/b/c.json` is the file `<root>/a/b/c.json`. Each `put` writes
 * a temporary file, flushes it to disk, then renames it over the key, so a reader (or a crash) sees the
 * old file or the new one, never part of one.
 */
export class FolderObjectStore implements ObjectStore {
  readonly description: string;

  constructor(private readonly root: string) {
    this.description = `folder ${root}`;
  }

  async put(key: string, body: Uint8Array, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    const partialDir = join(this.root, PARTIAL_FOLDER);
    const partial = join(partialDir, `${randomBytes(8).toString('hex')}.partial`);
    try {
      await mkdir(partialDir, { recursive: true });
      const file = await open(partial, 'wx');
      try {
        await file.writeFile(body);
        // Without the flush a power cut after the rename could leave an empty file under the key.
        await file.datasync();
      } finally {
        await file.close();
      }
      await this.renameIntoPlace(partial, target);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      throw new ObjectStoreError(`${this.description}: cannot write "${key}": ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    const path = this.pathOf(key);
    try {
      return new Uint8Array(await readFile(path));
    } catch (error) {
      if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return null;
      if (codeOf(error) === 'EISDIR') return null;
      throw new ObjectStoreError(`${this.description}: cannot read "${key}": ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    // Only the folder named by the prefix's complete segments can hold matches; start the walk there.
    const cut = prefix.lastIndexOf('/');
    const start = cut < 0 ? '' : prefix.slice(0, cut);
    const keys: string[] = [];
    await this.walk(start === '' ? this.root : join(this.root, ...start.split('/')), keys);
    // Plain code-unit order: the same order S3 lists in for the ASCII keys we write.
    return keys.filter((key) => key.startsWith(prefix)).sort(compareCodeUnits);
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) {
      const path = this.pathOf(key);
      try {
        await unlink(path);
      } catch (error) {
        if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') continue;
        throw new ObjectStoreError(`${this.description}: cannot delete "${key}": ${messageOf(error)}`, {
          cause: error,
        });
      }
      await this.removeEmptyParents(dirname(path));
    }
  }

  async close(): Promise<void> {}

  private pathOf(key: string): string {
    assertValidKey(key);
    const segments = key.split('/');
    if (segments[0] === PARTIAL_FOLDER) {
      throw new InvalidKeyError(`object key may not start with "${PARTIAL_FOLDER}/": "${key}"`);
    }
    return join(this.root, ...segments);
  }

  private async renameIntoPlace(partial: string, target: string): Promise<void> {
    // A concurrent delete may remove the (then empty) parent folder between mkdir and rename; retry once.
    for (let attempt = 0; ; attempt += 1) {
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(partial, target);
        return;
      } catch (error) {
        if (codeOf(error) !== 'ENOENT' || attempt > 0) throw error;
      }
    }
  }

  private async walk(dir: string, keys: string[]): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return;
      throw new ObjectStoreError(`${this.description}: cannot list ${dir}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === this.root && entry.name === PARTIAL_FOLDER) continue;
        await this.walk(path, keys);
      } else if (entry.isFile()) {
        keys.push(relative(this.root, path).split(sep).join('/'));
      }
    }
  }

  /** Pruned runs should not leave a trail of empty folders behind. */
  private async removeEmptyParents(dir: string): Promise<void> {
    let current = dir;
    while (current !== this.root && current.startsWith(this.root + sep)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      current = dirname(current);
    }
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
