/**
 * Runs one round of load with the best tool this machine has: wrk when it is installed (`make bench`
 * installs it where it can), otherwise autocannon (a devDependency, so it is always there) in a child
 * process of its own. Each round is bounded in time.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSpec } from './load-spec.js';
import { runWrk, wrkAvailable } from './wrk-load.js';

const CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));
/** Resolved here, not by the child, so the child finds tsx whatever its working directory. */
const TSX = import.meta.resolve('tsx');
/** Start-up (tsx compiles the client) plus the load itself plus slack for the last requests. */
const GRACE_MS = 15_000;

export type LoadTool = 'wrk' | 'autocannon';

let chosen: LoadTool | undefined;

export function loadTool(): LoadTool {
  chosen ??= wrkAvailable() ? 'wrk' : 'autocannon';
  return chosen;
}

export function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  return loadTool() === 'wrk' ? runWrk(spec) : autocannonInChild(spec);
}

function autocannonInChild(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLIENT, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), spec.settleMs + spec.durationMs + GRACE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`load client exited with ${code}: ${Buffer.concat(err).toString().slice(0, 500)}`));
        return;
      }
      resolve(JSON.parse(Buffer.concat(out).toString()) as LoadResult);
    });
  });
}
