/**
 * Parent side of `reserve-burst.ts` and `insert-key-burst.ts`: starts a burst process, resolves once it
 * is ready, and exposes `fire()` (send `go`, collect the results). For tests of what must hold across
 * processes (the allowance, the active-key limit).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CounterResult, InsertKeyResult } from '../../../gateway/state/gateway-state.js';

const SCRIPT = fileURLToPath(new URL('./reserve-burst.ts', import.meta.url));
const KEY_SCRIPT = fileURLToPath(new URL('./insert-key-burst.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface BurstProcess<Result = CounterResult> {
  fire(): Promise<Result[]>;
  kill(): void;
}

/** `reserve-burst.ts`: `count` concurrent `reserveRequest`s at one account. */
export function startBurstProcess(args: {
  url: string;
  accountId: string;
  periodStart: Date;
  limit: number;
  count: number;
}): Promise<BurstProcess> {
  return startBurst<CounterResult>(SCRIPT, [
    args.url,
    args.accountId,
    args.periodStart.toISOString(),
    String(args.limit),
    String(args.count),
  ]);
}

/** `insert-key-burst.ts`: `count` concurrent `insertKeyWithinLimit`s at one account. */
export function startKeyBurstProcess(args: {
  url: string;
  accountId: string;
  now: Date;
  maxActive: number;
  count: number;
}): Promise<BurstProcess<InsertKeyResult>> {
  return startBurst<InsertKeyResult>(KEY_SCRIPT, [
    args.url,
    args.accountId,
    args.now.toISOString(),
    String(args.maxActive),
    String(args.count),
  ]);
}

async function startBurst<Result>(script: string, argv: string[]): Promise<BurstProcess<Result>> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', script, ...argv],
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
      return JSON.parse(line) as Result[];
    },
    kill() {
      if (child.exitCode === null) child.kill();
    },
  };
}
