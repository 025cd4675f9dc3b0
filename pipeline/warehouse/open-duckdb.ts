import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Opens a DuckDB file, waiting while another process holds it. DuckDB allows one writing process per
 * file (and no reader while it writes); the daily job, the emissions watch and analysts take turns, so an
 * opener that finds the file locked retries with backoff for up to `lockWaitMs` instead of failing.
 * `failed` builds the caller's typed error for any other problem; `locked` the one for a lock that outlasts the wait.
 */
export async function openDuckDbWaiting(
  path: string,
  options: {
    readOnly: boolean;
    lockWaitMs: number;
    failed: (detail: string) => Error;
    locked: (detail: string) => Error;
  },
): Promise<DuckDBInstance> {
  const deadline = Date.now() + options.lockWaitMs;
  let delay = 50;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, options.readOnly ? { access_mode: 'READ_ONLY' } : {});
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (!/lock/i.test(text)) throw options.failed(text);
      if (Date.now() + delay > deadline) throw options.locked(text);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 1_000);
    }
  }
}
