/**
 * An S3 store opened by the command line prints only our lines: the AWS SDK's NodeVersionSupportWarning
 * (SDK releases after January 2027 need Node 22) is turned off by the entry point, and an operator can
 * turn it back on. `sbm publish` builds the S3 client before it opens the warehouse, so a missing
 * warehouse makes it fail fast after the client exists, without any S3 server.
 *
 * The SDK warns only when `process.version` is below 22. So that both tests check what they say on any
 * Node (on 22 and later the SDK would stay quiet whatever the entry point does), the child process
 * reports Node 20.12, the oldest this project supports, to the SDK: a preload sets `process.version`.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Makes the child's `process.version` a Node 20 one, whichever Node runs it. */
const AS_NODE_20 = `data:text/javascript,Object.defineProperty(process,'version',{value:'v20.12.0'})`;

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
      AS_NODE_20,
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

describe('the AWS SDK on Node 20 (a child that reports v20.12.0 to it, on any Node)', () => {
  it('prints nothing of its own: stderr is our one error line', async () => {
    const { code, stderr } = await publishToS3({});
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: warehouse .*\n$/);
  });

  it('shows its warning again when the operator asks for it', async () => {
    const { code, stderr } = await publishToS3({
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('NodeVersionSupportWarning');
    expect(stderr).toContain('You are running node v20.12.0');
  });
});
