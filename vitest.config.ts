import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/support/long-files-first.js';

// The AWS SDK's NodeVersionSupportWarning is for whoever upgrades the pinned SDK, not for a test run: the
// entry points set the same documented opt-out (docs/operating.md "Node versions"). Test files inherit it;
// test/store/quiet-s3-client.test.ts sets or removes it for the processes it starts.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

/** Lines @polkadot/api logs when a test stops a sandbox chain under a connected client: expected, not news. */
const EXPECTED_DISCONNECT =
  /API-WS: disconnected from ws:\/\/127\.0\.0\.1|API-WS: .*(ECONNREFUSED|1006:: Abnormal Closure)/;

// Tests start real servers (sandbox chain, S3, PostgreSQL); two cores, so files run in at most two forks.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Temporary files in RAM when the machine has /dev/shm (the worlds' DuckDB and SQLite commits wait for
    // no disk), first so the S3 server's files go there too; then one S3 server (radosgw) per run, up
    // before the heavy suites load the cores, only for runs whose selected files use it (see the files).
    globalSetup: ['test/support/ram-temp-dir.ts', 'test/services/s3-global-setup.ts'],
    pool: 'forks',
    // Each fork runs its files one after another in one process (no new process and module graph per
    // file): a file imported the project's modules afresh in 1.7 s on average, a sixth of the run's time.
    // Each file still starts its own servers and worlds and stops them; a spy or a changed environment
    // variable is restored by the file that made it.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    // The files that take minutes start first, so they overlap the rest instead of ending the run alone.
    sequence: { sequencer: LongFilesFirst },
    testTimeout: 60_000,
    // A passing run prints the summary and little else: console output of passing tests is dropped (a
    // failing test's output is kept), and so are the chain client's disconnect lines when a test stops
    // its sandbox.
    silent: 'passed-only',
    onConsoleLog: (log) => (EXPECTED_DISCONNECT.test(log) ? false : undefined),
    hookTimeout: 120_000,
  },
});
