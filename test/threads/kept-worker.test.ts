/**
 * The pack's thread is kept between builds: the next build must find the same running thread (its code loaded
 * and compiled), a thread that failed must be replaced rather than handed out dead, with the work waiting on it
 * told, and an unused thread must end by itself so that a long-lived process does not keep idle threads.
 */
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { leaseKeptWorker, type WorkerLease } from '../../pipeline/threads/kept-worker.js';

const ECHO = new URL('./fixtures/echo-worker.ts', import.meta.url);

/** The thread's answer to one message: its id, seen from inside it. */
function echo(worker: Worker, message: string): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (reply: { threadId: number; message: string }) => {
      if (reply.message !== message) return;
      worker.off('message', onMessage);
      resolve(reply.threadId);
    };
    worker.on('message', onMessage);
    worker.postMessage(message);
  });
}

const ended = (worker: Worker) => new Promise<void>((resolve) => worker.once('exit', () => resolve()));

const leases: WorkerLease[] = [];
afterEach(async () => {
  for (const lease of leases.splice(0)) {
    lease.release();
    await lease.worker.terminate();
  }
});

function lease(idleMs?: number): WorkerLease {
  const leased = leaseKeptWorker(ECHO, idleMs);
  leases.push(leased);
  return leased;
}

describe('a kept worker thread', () => {
  it('is the same running thread for the next build, and for two builds at once', async () => {
    const first = lease();
    const id = await echo(first.worker, 'first build');
    first.release();
    const second = lease();
    const third = lease();
    expect(await echo(second.worker, 'second build')).toBe(id);
    expect(await echo(third.worker, 'a build at the same time')).toBe(id);
    expect(second.failed).toBe(false);
  });

  it('tells the work waiting on a thread that ended, and starts another for the next build', async () => {
    const first = lease();
    const id = await echo(first.worker, 'before');
    const told = new Promise<void>((resolve) => first.onFailure(resolve));
    await first.worker.terminate();
    await told;
    expect(first.failed).toBe(true);
    const next = lease();
    expect(next.failed).toBe(false);
    expect(await echo(next.worker, 'after')).not.toBe(id);
  });

  it('ends once no build has used it for the time given, and a later build gets a new one', async () => {
    const first = lease(50);
    const id = await echo(first.worker, 'used');
    const exit = ended(first.worker);
    first.release();
    await exit;
    const later = lease();
    expect(await echo(later.worker, 'later')).not.toBe(id);
  });

  it('is not ended while a build still uses it', async () => {
    const first = lease(50);
    const id = await echo(first.worker, 'one');
    const other = lease(50);
    first.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.failed).toBe(false);
    expect(await echo(other.worker, 'still there')).toBe(id);
  });
});
