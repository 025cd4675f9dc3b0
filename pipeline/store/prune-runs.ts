import type { ObjectStore } from './object-store.js';

/** `runs/` under the publisher's namespace: `runs/` or `emissions/runs/`. */
export function runsPrefix(prefix: string): string {
  return `${prefix}runs/`;
}

/**
 * Deletes every run but the newest `keepRuns` and the `live` one. Newer runs than the live one are kept
 * as part of the newest: they may be another publisher's run in progress. Runs left by a crashed or failed
 * publisher (never listed by a manifest) are older than the next successful one and go once they fall out
 * of the newest.
 */
export async function pruneRuns(
  store: ObjectStore,
  prefix: string,
  keepRuns: number,
  live: string,
): Promise<string[]> {
  const base = runsPrefix(prefix);
  const keys = await store.list(base);
  const byVersion = new Map<string, string[]>();
  for (const key of keys) {
    const version = key.slice(base.length).split('/')[0];
    if (version === undefined || version === '') continue;
    const list = byVersion.get(version) ?? [];
    list.push(key);
    byVersion.set(version, list);
  }
  const newestFirst = [...byVersion.keys()].sort().reverse();
  const doomed = newestFirst.slice(keepRuns).filter((version) => version !== live);
  // Delete the oldest first, so a crash part-way leaves the newer (more useful) runs.
  for (const version of doomed.reverse()) {
    await store.delete(byVersion.get(version) ?? []);
  }
  return doomed;
}
