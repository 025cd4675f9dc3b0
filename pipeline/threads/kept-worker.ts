/**
 * A worker thread kept between the builds that use it. A process that builds packs one after another (`orders
 * fulfil` with several paid orders, a revised pack after the first) gives each build after the first a thread
 * whose code is loaded and already compiled by the engine: loading it costs the better part of a second of
 * CPU, and a fresh thread runs the same work markedly slower until the engine has compiled it. The thread holds
 * the process open only while a build uses it, and ends once unused for `idleMs`.
 */
import type { Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from './typescript-worker.js';

/** How long an unused thread is kept: the next order of the same run comes within seconds. */
export const KEPT_WORKER_IDLE_MS = 60_000;

interface Kept {
  worker: Worker;
  users: number;
  idle: NodeJS.Timeout | undefined;
  /** Whether it failed or ended: it is no longer kept, and a later lease starts a new one. */
  ended: boolean;
  /** Its users' work waiting for it, each moved back to the user's thread when it fails. */
  failures: Set<() => void>;
}

/** The kept threads, by their module's URL. */
const kept = new Map<string, Kept>();

/** One build's use of a kept thread. */
export interface WorkerLease {
  readonly worker: Worker;
  /** Whether the thread has failed (an error, or it ended). */
  readonly failed: boolean;
  /** Calls `listener` if the thread fails before the returned function is called or the lease released. */
  onFailure(listener: () => void): () => void;
  /** The build is done with it: once no build uses it, it stops holding the process open. */
  release(): void;
}

/**
 * The kept thread running `entry` (a module's file URL), started now if there is none; throws if it cannot
 * start. Several builds may lease it at once: the messages they exchange with it must say whose they are.
 */
export function leaseKeptWorker(entry: URL, idleMs = KEPT_WORKER_IDLE_MS): WorkerLease {
  const held = kept.get(entry.href) ?? keep(entry);
  clearTimeout(held.idle);
  held.idle = undefined;
  held.users += 1;
  held.worker.ref();
  const mine = new Set<() => void>();
  let released = false;
  return {
    worker: held.worker,
    get failed() {
      return held.ended;
    },
    onFailure(listener) {
      held.failures.add(listener);
      mine.add(listener);
      return () => {
        held.failures.delete(listener);
        mine.delete(listener);
      };
    },
    release() {
      if (released) return;
      released = true;
      for (const listener of mine) held.failures.delete(listener);
      held.users -= 1;
      if (held.users > 0 || held.ended) return;
      held.worker.unref();
      held.idle = setTimeout(() => {
        forget(entry, held);
        void held.worker.terminate();
      }, idleMs);
      held.idle.unref();
    },
  };
}

function keep(entry: URL): Kept {
  const held: Kept = {
    worker: startTypeScriptWorker(entry),
    users: 0,
    idle: undefined,
    ended: false,
    failures: new Set(),
  };
  const fail = () => {
    forget(entry, held);
    clearTimeout(held.idle);
    const waiting = [...held.failures];
    held.failures.clear();
    for (const listener of waiting) listener();
  };
  held.worker.once('error', fail);
  held.worker.once('exit', fail);
  kept.set(entry.href, held);
  return held;
}

function forget(entry: URL, held: Kept): void {
  held.ended = true;
  if (kept.get(entry.href) === held) kept.delete(entry.href);
}
