/**
 * Both real state engines for tests: a SQLite file in a fresh temp directory and a fresh PostgreSQL
 * schema (server or in-process PGlite, see test/services/postgres.ts). Each `start()` returns the
 * `SBM_STATE_URL` to open, so tests can open several connections (or processes) on one state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres } from '../../services/postgres.js';

export interface TestStateStore {
  url: string;
  /** Which engine actually runs: `sqlite`, `postgres:server` or `postgres:pglite`. */
  label: string;
  /** SQLite only: the database file, for tests that read its bytes. */
  sqlitePath?: string;
  stop(): Promise<void>;
}

export interface StateEngine {
  name: 'sqlite' | 'postgres';
  start(): Promise<TestStateStore>;
}

export const STATE_ENGINES: StateEngine[] = [
  {
    name: 'sqlite',
    async start() {
      const dir = await mkdtemp(join(tmpdir(), 'sbm-state-'));
      const sqlitePath = join(dir, 'gateway.sqlite');
      return {
        url: `sqlite:${sqlitePath}`,
        label: 'sqlite',
        sqlitePath,
        stop: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async start() {
      const postgres = await startTestPostgres();
      return { url: postgres.url, label: `postgres:${postgres.kind}`, stop: postgres.stop };
    },
  },
];
