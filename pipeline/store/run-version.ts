import { randomBytes } from 'node:crypto';

/** The last version this process issued: a later run of the same millisecond must sort after it. */
let lastIssued = '';

/**
 * A run's version, e.g. `2026-11-21T22-30-00.123Z-9f1c2a7b`: fixed width, so plain string order is time
 * order (pruning relies on it), with a random tail so two publishers in the same millisecond never share
 * a prefix. Within one process, a second run in the same millisecond gets a tail above the first's, so it
 * sorts after it and pruning keeps the newer one (across processes the same millisecond has no order).
 * No `:` because it is awkward in file names and URLs.
 */
export function newRunVersion(now: Date): string {
  const stamp = now.toISOString().replaceAll(':', '-');
  let tail = randomBytes(4).toString('hex');
  const last = lastIssued.startsWith(`${stamp}-`) ? lastIssued.slice(stamp.length + 1) : null;
  // The last tail plus one keeps the width; after ffffffff (a 2^-32 chance) order falls back to chance.
  if (last !== null && tail <= last && last !== 'ffffffff') {
    tail = (Number.parseInt(last, 16) + 1).toString(16).padStart(8, '0');
  }
  lastIssued = `${stamp}-${tail}`;
  return lastIssued;
}

/** Versions become key segments; anything else a caller passes is refused. */
export const RUN_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
