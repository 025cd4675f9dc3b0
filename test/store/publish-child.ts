/**
 * A publisher for the crash test (`publication-crash.test.ts`), run as its own process so the test can
 * SIGKILL it at any point. Usage: `node --import tsx publish-child.ts <folder> <objects> <bytes> <keepRuns>`.
 * Prints `version <v>` first, `put <key>` after every completed write, `done` at the end.
 */
import { randomBytes } from 'node:crypto';
import { FolderObjectStore } from '../../pipeline/store/folder-store.js';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import { publishRun } from '../../pipeline/store/publication.js';
import { newRunVersion } from '../../pipeline/store/run-version.js';

const [root, count, size, keepRuns] = process.argv.slice(2);
if (!root || !count || !size || !keepRuns)
  throw new Error('usage: publish-child.ts <folder> <objects> <bytes> <keepRuns>');

const folder = new FolderObjectStore(root);
// The real folder store, reporting each finished write so the parent can kill at a chosen point.
const store: ObjectStore = {
  description: folder.description,
  put: async (key, body, contentType) => {
    await folder.put(key, body, contentType);
    process.stdout.write(`put ${key}\n`);
  },
  get: (key) => folder.get(key),
  list: (prefix) => folder.list(prefix),
  delete: (keys) => folder.delete(keys),
  close: () => folder.close(),
};

const version = newRunVersion(new Date());
process.stdout.write(`version ${version}\n`);
const objects = Array.from({ length: Number(count) }, (_, i) => ({
  path: `part-${String(i).padStart(4, '0')}/data.bin`,
  body: new Uint8Array(randomBytes(Number(size))),
  contentType: 'application/octet-stream',
}));
await publishRun(store, {
  prefix: '',
  version,
  objects,
  meta: { burns_checked_at: new Date().toISOString() },
  keepRuns: Number(keepRuns),
  concurrency: 4,
});
process.stdout.write('done\n');
