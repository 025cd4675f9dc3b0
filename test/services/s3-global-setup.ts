/**
 * Vitest global setup: one S3 server for the whole run, started before any test file and stopped after the
 * last. Starting radosgw takes about 13 s idle and far longer on two busy cores (issue 18: the OSD lost its
 * start race six times in a row while the rest of the suite loaded the machine), so it starts here, while
 * the cores are still free, and once rather than once per file.
 *
 * A run pays for it only when it needs it: the server starts when one of the run's selected test files
 * imports `shared-s3-server` (so `npx vitest run test/foo.test.ts` on a file without S3 starts nothing);
 * when the selection cannot be read, it starts anyway, the safe side.
 *
 * When radosgw can be installed but does not start, the reason goes to every test file that asked for the
 * server, and each fails with it: the run fails where S3 is needed while the other suites still report.
 * The s3rver fallback is only for machines where radosgw cannot be installed (see `s3-server.ts`).
 */
import { readFile } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { type S3TestServer, startS3Server } from './s3-server.js';

const S3_USER = /shared-s3-server(\.js)?['"]/;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: S3TestServer | null = null;
  if (!(await runNeedsS3(project))) {
    project.provide('s3Server', null);
  } else {
    try {
      server = await startS3Server();
      // Only plain data crosses to the test processes.
      const { kind, endpoint, region, accessKeyId, secretAccessKey, bucket, startMs } = server;
      project.provide('s3Server', {
        server: { kind, endpoint, region, accessKeyId, secretAccessKey, bucket, startMs },
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        '[s3-server] the S3 server did not start; the test files that use it fail with the reason\n',
      );
      project.provide('s3Server', { failure: reason });
    }
  }
  return async () => {
    await server?.stop();
  };
}

/**
 * The files vitest collected for this run; it records them (`onTestRunStart`) before it calls global
 * setups. A file that cannot be read counts as a user: starting for nothing costs seconds, not a failure.
 */
async function runNeedsS3(project: TestProject): Promise<boolean> {
  const paths = project.vitest.state.getPaths();
  if (paths.length === 0) return true;
  for (const path of paths) {
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null || S3_USER.test(text)) return true;
  }
  return false;
}
