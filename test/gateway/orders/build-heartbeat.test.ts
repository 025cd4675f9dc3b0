/**
 * The build's heartbeat records each new phase at once: a pack built in a few seconds shows its size and
 * phase on the order page and in `orders show`, not only "starting" until the next periodic renewal.
 */
import { describe, expect, it } from 'vitest';
import { heartbeatMs, startHeartbeat } from '../../../gateway/orders/build-heartbeat.js';
import type { BuildProgress } from '../../../gateway/state/order-state.js';

describe('the build heartbeat', () => {
  it('renews at once with the size when the reads begin, and again when the files are written', async () => {
    const renewals: BuildProgress[] = [];
    const heartbeat = startHeartbeat({
      renew: async (_now, _until, progress) => {
        renewals.push(progress);
        return true;
      },
      now: () => new Date(),
      // A lease long enough that no periodic beat falls inside the test: each renewal below is a phase's.
      leaseMs: 10 * 60_000,
    });
    await Promise.resolve();
    expect(renewals.map((p) => p.phase)).toEqual(['starting']);
    heartbeat.onProgress({ phase: 'reading-chain', positions: 200, days: 369, blocksRead: 0, blocks: 1106 });
    await new Promise((resolve) => setImmediate(resolve));
    // Later reads move the count on without a write of their own.
    heartbeat.onProgress({
      phase: 'reading-chain',
      positions: 200,
      days: 369,
      blocksRead: 500,
      blocks: 1106,
    });
    await new Promise((resolve) => setImmediate(resolve));
    heartbeat.onProgress({
      phase: 'writing-files',
      positions: 200,
      days: 369,
      blocksRead: 1106,
      blocks: 1106,
    });
    await new Promise((resolve) => setImmediate(resolve));
    await heartbeat.stop();
    expect(renewals.map((p) => [p.phase, p.positions, p.days, p.blocksRead, p.blocks])).toEqual([
      ['starting', 0, 0, 0, 0],
      ['reading-chain', 200, 369, 0, 1106],
      ['writing-files', 200, 369, 1106, 1106],
    ]);
    expect(heartbeat.lost()).toBe(false);
  });

  it('beats at least every 5 seconds, and every third of a short lease', () => {
    expect(heartbeatMs(10 * 60_000)).toBe(5_000);
    expect(heartbeatMs(6_000)).toBe(2_000);
    expect(heartbeatMs(30)).toBe(100);
  });
});
