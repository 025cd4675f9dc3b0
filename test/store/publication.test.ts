import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderObjectStore } from '../../pipeline/store/folder-store.js';
import { readManifest } from '../../pipeline/store/manifest.js';
import { publishRun } from '../../pipeline/store/publication.js';
import { newRunVersion } from '../../pipeline/store/run-version.js';
import {
  InvalidKeyError,
  InvalidManifestError,
  ObjectStoreError,
} from '../../pipeline/store/store-errors.js';

const root = await mkdtemp(join(tmpdir(), 'sbm-publication-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let n = 0;
const freshStore = () => {
  n += 1;
  return new FolderObjectStore(join(root, `case-${n}`));
};
const json = (text: string) => ({
  path: 'a.json',
  body: new TextEncoder().encode(text),
  contentType: 'application/json',
});

describe('newRunVersion', () => {
  it('sorts by time as plain strings and differs within one millisecond', () => {
    const at = new Date('2026-11-21T22:30:00.123Z');
    const version = newRunVersion(at);
    expect(version).toMatch(/^2026-11-21T22-30-00\.123Z-[0-9a-f]{8}$/);
    expect(newRunVersion(at)).not.toBe(version);
    const later = newRunVersion(new Date('2026-11-21T22:30:01.000Z'));
    const muchLater = newRunVersion(new Date('2027-01-02T03:04:05.006Z'));
    expect([muchLater, later, version].sort()).toEqual([version, later, muchLater]);
  });

  it('gives runs of one process in the same millisecond versions in the order they were made', () => {
    const at = new Date('2026-11-21T22:30:00.456Z');
    const made = Array.from({ length: 50 }, () => newRunVersion(at));
    expect(new Set(made).size).toBe(50);
    expect([...made].sort()).toEqual(made);
  });
});

describe('publishRun', () => {
  it('writes the manifest with version, created_at, objects and meta', async () => {
    const store = freshStore();
    const now = new Date('2026-11-21T22:30:00.000Z');
    const { manifest } = await publishRun(store, {
      prefix: '',
      objects: [json('{"a":1}')],
      meta: { burns_checked_at: '2026-11-21T00:00:00Z', as_of: null },
      now,
    });
    expect(manifest.version.startsWith('2026-11-21T22-30-00.000Z-')).toBe(true);
    expect(await readManifest(store, '')).toEqual({
      version: manifest.version,
      created_at: '2026-11-21T22:30:00.000Z',
      objects: [
        {
          path: 'a.json',
          key: `runs/${manifest.version}/a.json`,
          sha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
          bytes: 7,
          content_type: 'application/json',
        },
      ],
      burns_checked_at: '2026-11-21T00:00:00Z',
      as_of: null,
    });
  });

  it('refuses a bad run before writing anything', async () => {
    const store = freshStore();
    const bad = [
      { prefix: '', objects: [json('1'), json('2')] },
      { prefix: '', objects: [{ ...json('1'), path: '../escape.json' }] },
      { prefix: '', objects: [json('1')], meta: { version: 'mine' } },
      { prefix: '', objects: [json('1')], keepRuns: 0 },
      { prefix: '', objects: [json('1')], version: 'has/slash' },
      { prefix: 'emissions', objects: [json('1')] },
    ];
    for (const input of bad) {
      await expect(
        publishRun(store, input),
        JSON.stringify(input.objects.map((o) => o.path)),
      ).rejects.toBeInstanceOf(ObjectStoreError);
    }
    await expect(publishRun(store, bad[1]!)).rejects.toBeInstanceOf(InvalidKeyError);
    expect(await store.list('')).toEqual([]);
  });

  it('treats a manifest it did not write as an error, not as "nothing published"', async () => {
    const store = freshStore();
    await store.put('manifest.json', new TextEncoder().encode('{"version":'), 'application/json');
    await expect(readManifest(store, '')).rejects.toBeInstanceOf(InvalidManifestError);
    await store.put('manifest.json', new TextEncoder().encode('{"version":"v"}'), 'application/json');
    await expect(readManifest(store, '')).rejects.toThrow(/objects/);
  });
});
