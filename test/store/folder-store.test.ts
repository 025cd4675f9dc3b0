import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderObjectStore, PARTIAL_FOLDER } from '../../pipeline/store/folder-store.js';
import { InvalidKeyError } from '../../pipeline/store/store-errors.js';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function freshFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'sbm-folder-'));
  folders.push(folder);
  return folder;
}

describe('FolderObjectStore', () => {
  it('stores key a/b/c.json as the file <root>/a/b/c.json and creates the root on first write', async () => {
    const root = join(await freshFolder(), 'not', 'yet');
    const store = new FolderObjectStore(root);
    expect(await store.list('')).toEqual([]);
    expect(await store.get('a/b/c.json')).toBeNull();
    await store.put('a/b/c.json', new TextEncoder().encode('{"c":true}'), 'application/json');
    expect(await readFile(join(root, 'a', 'b', 'c.json'), 'utf8')).toBe('{"c":true}');
    // The temp folder is empty after a successful write and never listed.
    expect(await readdir(join(root, PARTIAL_FOLDER))).toEqual([]);
    expect(await store.list('')).toEqual(['a/b/c.json']);
  });

  it('never lets a reader see a half-written object while it is overwritten', async () => {
    const store = new FolderObjectStore(await freshFolder());
    const small = new Uint8Array(256 * 1024).fill(0x41);
    const large = new Uint8Array(2 * 1024 * 1024).fill(0x42);
    await store.put('live.bin', small, 'application/octet-stream');
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 20; i += 1)
        await store.put('live.bin', i % 2 === 0 ? large : small, 'application/octet-stream');
      writing = false;
    })();
    const seen = new Set<number>();
    const reader = async () => {
      while (writing) {
        const body = await store.get('live.bin');
        expect(body).not.toBeNull();
        // Whole and uniform: all A (small) or all B (large), never a mix or a truncated file.
        const expected = body!.byteLength === small.byteLength ? small : large;
        expect(Buffer.from(body!).equals(expected)).toBe(true);
        seen.add(body!.byteLength);
      }
    };
    await Promise.all([writer, reader(), reader()]);
    expect(seen.size).toBe(2);
  });

  it('removes folders emptied by delete, up to but not including the root', async () => {
    const root = await freshFolder();
    const store = new FolderObjectStore(root);
    await store.put('runs/v1/a/b.json', new Uint8Array([1]), 'application/json');
    await store.put('runs/v2/c.json', new Uint8Array([2]), 'application/json');
    await store.delete(['runs/v1/a/b.json']);
    expect((await readdir(join(root, 'runs'))).sort()).toEqual(['v2']);
    await store.delete(['runs/v2/c.json']);
    expect((await stat(root)).isDirectory()).toBe(true);
    expect(await store.list('')).toEqual([]);
  });

  it('refuses keys inside its temp folder and keys that escape the root', async () => {
    const root = await freshFolder();
    const store = new FolderObjectStore(join(root, 'store'));
    const body = new Uint8Array(randomBytes(8));
    for (const key of [`${PARTIAL_FOLDER}/x`, '../outside', 'a/../../outside']) {
      await expect(store.put(key, body, 'text/plain'), key).rejects.toBeInstanceOf(InvalidKeyError);
    }
    expect(await readdir(root)).toEqual([]);
  });
});
