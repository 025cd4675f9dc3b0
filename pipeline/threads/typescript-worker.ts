/**
 * A worker thread running one of our TypeScript modules. The product runs under tsx, whose loader a worker
 * thread does not inherit (neither from the tsx CLI nor from vitest), so the worker starts from a small
 * JavaScript module that registers tsx's loader and then imports the entry.
 */
import { Worker } from 'node:worker_threads';

const BOOT = new URL('./typescript-worker-boot.mjs', import.meta.url);

/** Starts `entry` (a module's file URL, `new URL('./x.ts', import.meta.url)`) on a thread of its own. */
export function startTypeScriptWorker(entry: URL): Worker {
  return new Worker(BOOT, { workerData: { entry: entry.href } });
}
