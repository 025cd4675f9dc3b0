import { defineConfig } from 'vitest/config';

// Tests start real servers (sandbox chain, S3, PostgreSQL); two cores, so files run in at most two forks.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One S3 server (radosgw) per run, up before the heavy suites load the cores; only for runs whose
    // selected files use it (see the file).
    globalSetup: ['test/services/s3-global-setup.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
