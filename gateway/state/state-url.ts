import { isAbsolute, resolve } from 'node:path';
import { StateUrlError } from './state-errors.js';

export type StateLocation = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string };

const FORMS =
  'use sqlite:./relative/path.sqlite, sqlite:/absolute/path.sqlite or postgres://user@host:port/db';

/**
 * Reads `SBM_STATE_URL`. `sqlite:` takes a file path (relative paths resolve against `baseDir`, the
 * working directory by default; `sqlite://` followed by an absolute path is accepted as well), and
 * `sqlite::memory:` is a private in-memory database for tests. `postgres://` and `postgresql://` go
 * to pg unchanged, so `?options=-c search_path=...` or `sslmode` work as pg documents them.
 */
export function parseStateUrl(url: string, baseDir: string = process.cwd()): StateLocation {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { engine: 'postgres', url: trimmed };
  if (/^sqlite:/i.test(trimmed)) {
    let path = trimmed.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') throw new StateUrlError(`SBM_STATE_URL "${url}" has no file path; ${FORMS}`);
    if (path === ':memory:') return { engine: 'sqlite', path };
    return { engine: 'sqlite', path: isAbsolute(path) ? path : resolve(baseDir, path) };
  }
  throw new StateUrlError(`SBM_STATE_URL "${url}" is not a known state store; ${FORMS}`);
}
