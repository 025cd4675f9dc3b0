import { randomBytes } from 'node:crypto';

/**
 * A run's version, e.g. `2026-11-21T22-30-00.123Z-9f1c2a7b`: fixed width, so plain string order is time
 * order (pruning relies on it), with a random tail so two publishers in the same millisecond never share
 * a prefix. No `:` because it is awkward in file names and URLs.
 */
export function newRunVersion(now: Date): string {
  return `${now.toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}`;
}

/** Versions become key segments; anything else a caller passes is refused. */
export const RUN_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
