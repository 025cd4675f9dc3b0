/**
 * Parent side of `reserve-burst.ts`: starts a burst process, resolves once it is ready, and exposes
 * `fire()` (send `go`, collect the results). Reusable for any cross-process allowance test.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CounterResult } from '../../../gateway/state/gateway-state.js';

const SCRIPT = fileURLToPath(new URL('./reserve-burst.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface BurstProcess {
  fire(): Promise<CounterResult[]>;
  kill(): void;
}

export async function startBurstProcess(args: {
  url: string;
  accountId: string;
  periodStart: Date;
  limit: number;
  count: number;
}): Promise<BurstProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SCRIPT,
      args.url,
      args.accountId,
      args.periodStart.toISOString(),
      String(args.limit),
      String(args.count),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (stdout.includes('ready\n')) {
        child.stdout.off('data', check);
        resolve();
      }
    };
    child.stdout.on('data', check);
    exited.then((code) => reject(new Error(`burst process exited (${code}) before ready: ${stderr}`)));
  });

  return {
    async fire() {
      child.stdin.end('go\n');
      const code = await exited;
      if (code !== 0) throw new Error(`burst process failed (${code}): ${stderr}`);
      const line = stdout.split('\n').find((l) => l.startsWith('['));
      if (!line) throw new Error(`burst process printed no results: ${stdout}`);
      return JSON.parse(line) as CounterResult[];
    },
    kill() {
      if (child.exitCode === null) child.kill();
    },
  };
}
