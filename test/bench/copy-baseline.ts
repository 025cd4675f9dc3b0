/**
 * The I/O floor under a publish: the same objects (same keys, same bytes) written again, with the same
 * eight writes in flight as `publishRun`. Two flavours: a plain `fs.writeFile` (what the disk costs at
 * least), and the folder store's own `put` (temp file, datasync, rename: what durability costs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FolderObjectStore } from '../../pipeline/store/index.js';

export interface StoredObject {
  key: string;
  body: Uint8Array;
  contentType: string;
}

const WRITES_IN_FLIGHT = 8;

export async function timePlainCopy(objects: readonly StoredObject[], root: string): Promise<number> {
  const started = performance.now();
  // Folders first, once each, so the copy is not charged for mkdir calls the store would not repeat.
  const folders = new Set(objects.map((object) => dirname(join(root, object.key))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  await inParallel(objects, (object) => writeFile(join(root, object.key), object.body));
  return performance.now() - started;
}

export async function timeStorePuts(objects: readonly StoredObject[], root: string): Promise<number> {
  const store = new FolderObjectStore(root);
  const started = performance.now();
  await inParallel(objects, (object) => store.put(object.key, object.body, object.contentType));
  return performance.now() - started;
}

async function inParallel<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, worker));
}
