/**
 * A real PostgreSQL for tests, in this order of preference:
 *  1. `TEST_DATABASE_URL` (CI sets it), or the machine's server at 127.0.0.1:5432 (database `test`);
 *     each call creates a fresh schema and returns a URL whose `search_path` selects it, so parallel
 *     test files never see each other's tables; `stop()` drops the schema.
 *  2. Where no server answers, an in-process PostgreSQL (PGlite, the real engine compiled to WASM)
 *     behind pglite-socket's wire-protocol server on a free port, so `pg` connects to it unchanged.
 * `TEST_POSTGRES=pglite` forces the second path, to check that it works. The choice is printed.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestPostgres {
  url: string;
  kind: 'server' | 'pglite';
  stop(): Promise<void>;
}

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function startTestPostgres(): Promise<TestPostgres> {
  const forced = process.env['TEST_POSTGRES'];
  if (forced !== 'pglite') {
    const base = process.env['TEST_DATABASE_URL'] || LOCAL_URL;
    const server = await tryServer(base, forced === 'server' || Boolean(process.env['TEST_DATABASE_URL']));
    if (server) return server;
  }
  return startPglite();
}

async function tryServer(base: string, required: boolean): Promise<TestPostgres | null> {
  const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    if (required) throw new Error(`PostgreSQL at ${redact(base)} is not reachable: ${String(error)}`);
    return null;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = withSearchPath(base, schema);
  log(`server ${redact(base)}, schema ${schema}`);
  return {
    url,
    kind: 'server',
    async stop() {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

async function startPglite(): Promise<TestPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  // Port 0: the OS picks a free port; pglite-socket reports it back through getServerConn().
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 256 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  log(`in-process PGlite at ${url}`);
  return {
    url,
    kind: 'pglite',
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

function withSearchPath(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function log(message: string): void {
  process.stderr.write(`[test postgres] ${message}\n`);
}
