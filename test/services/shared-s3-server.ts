/**
 * The run's one S3 server, for test files: `const s3 = await sharedS3Server();` at the top level.
 *
 * `s3-global-setup.ts` starts it before any test file runs and hands its address here through vitest's
 * `provide`/`inject`; it also stops it, so test files do not. The bucket is shared by every file of the
 * run: keep to your own key prefix. The global setup recognises a test file that needs the server by its
 * import of this module, so import it by this name.
 *
 * When the global setup could not start it, this throws its reason, so the calling file fails with it.
 * Without a server from the global setup (a watch-mode rerun that added an S3 file after the first run, or
 * a config without the global setup) this starts one for the calling file and stops it after its tests.
 */
import { afterAll, inject } from 'vitest';
import { type S3ServerInfo, startS3Server } from './s3-server.js';

/** What the global setup hands over: the server, why it did not start, or null when nothing asked for it. */
export type SharedS3Start = { server: S3ServerInfo } | { failure: string } | null;

declare module 'vitest' {
  export interface ProvidedContext {
    s3Server: SharedS3Start;
  }
}

export async function sharedS3Server(): Promise<S3ServerInfo> {
  const shared = inject('s3Server');
  if (shared && 'server' in shared) return shared.server;
  if (shared && 'failure' in shared) throw new Error(shared.failure);
  process.stderr.write('[s3-server] no server from s3-global-setup.ts; starting one for this test file\n');
  const own = await startS3Server();
  afterAll(() => own.stop());
  return own;
}
