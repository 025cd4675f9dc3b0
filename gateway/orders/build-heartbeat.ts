import type { LedgerProgress } from '../../pipeline/tax/products/compute-tax-year.js';
import type { BuildProgress } from '../state/order-state.js';

/**
 * How often a build renews its lease and records its progress: a third of the lease, so two renewals
 * can fail (a slow state, a long synchronous step) before it runs out, and at least every 5 seconds, so
 * the order page and `orders show` follow a build of a few seconds too; never more often than every 100 ms.
 */
export function heartbeatMs(leaseMs: number): number {
  return Math.max(100, Math.min(5_000, Math.floor(leaseMs / 3)));
}

export interface Heartbeat {
  /** Give it to the pack builder: it records how far the build is. */
  onProgress: (progress: LedgerProgress) => void;
  /** True once a renewal found the lease gone (another worker may hold the order now). */
  lost(): boolean;
  /** Stops the renewals; waits for one in flight. */
  stop(): Promise<void>;
}

/**
 * Keeps a build's lease alive while it runs: a pack of hundreds of positions reads the chain for minutes,
 * longer than a lease that frees the order of a worker that died. Every `heartbeatMs(leaseMs)` it renews
 * the lease to `now + leaseMs` with the build's progress, in one conditional UPDATE for the lease holder
 * (`renew`), so only the worker that holds the order writes either. The first renewal is at once (it
 * records the start), and so is the one after each change of phase (after the renewal in flight, if any).
 * A renewal that finds the lease gone stops the heartbeat and `lost()` says so: the worker then uploads
 * nothing and leaves the order to its new holder. A renewal that fails (the state did
 * not answer) is tried again at the next beat; the lease, three beats long, outlasts two such failures.
 */
export function startHeartbeat(options: {
  renew: (now: Date, leaseUntil: Date, progress: BuildProgress) => Promise<boolean>;
  now: () => Date;
  leaseMs: number;
}): Heartbeat {
  const startedAt = options.now().toISOString();
  let progress: BuildProgress = {
    phase: 'starting',
    positions: 0,
    days: 0,
    blocksRead: 0,
    blocks: 0,
    startedAt,
    updatedAt: startedAt,
  };
  let lost = false;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let busy = false;
  // A beat asked for while a renewal is in flight (a new phase): made as soon as that one is done.
  let again = false;

  const beat = () => {
    if (lost || stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    const now = options.now();
    const sent = { ...progress, updatedAt: now.toISOString() };
    inFlight = options
      .renew(now, new Date(now.getTime() + options.leaseMs), sent)
      .then(
        (held) => {
          if (!held) lost = true;
        },
        () => {},
      )
      .finally(() => {
        busy = false;
        if (again) {
          again = false;
          beat();
        }
      });
  };
  beat();
  const timer = setInterval(beat, heartbeatMs(options.leaseMs));

  return {
    onProgress(next) {
      const phaseBefore = progress.phase;
      // Writing the files: the chain is read; the size stays the one the reads reported.
      progress =
        next.phase === 'writing-files'
          ? { ...progress, phase: next.phase, blocksRead: progress.blocks }
          : { ...progress, ...next };
      // A new phase is recorded at once (the first reads give the build's size): no wait for the next beat.
      if (progress.phase !== phaseBefore) beat();
    },
    lost: () => lost,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
