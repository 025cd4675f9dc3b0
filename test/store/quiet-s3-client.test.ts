/**
 * An S3 store opened by the command line prints only our lines: the AWS SDK's NodeVersionSupportWarning
 * (SDK releases after January 2027 need Node 22) is turned off by the entry point, and an operator can
 * turn it back on. `sbm publish` builds the S3 client before it opens the warehouse, so a missing
 * warehouse makes it fail fast after the client exists, without any S3 server.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

async function publishToS3(
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    ...extraEnv,
  };
  if (!('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED' in extraEnv)) {
    delete env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'];
  }
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'pipeline/cli.ts',
      'publish',
      '--warehouse',
      '/nonexistent-sbm-folder/burns.duckdb',
      '--store',
      's3://sbm-test/quiet',
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

describe('the AWS SDK on Node 20', () => {
  it('prints nothing of its own: stderr is our one error line', async () => {
    const { code, stderr } = await publishToS3({});
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: warehouse .*\n$/);
  });

  it.runIf(Number(process.versions.node.split('.')[0]) < 22)(
    'shows its warning again when the operator asks for it',
    async () => {
      const { code, stderr } = await publishToS3({
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false',
      });
      expect(code).toBe(1);
      expect(stderr).toContain('NodeVersionSupportWarning');
    },
  );
});
