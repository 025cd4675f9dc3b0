/**
 * A full-year pack of about 200 positions, bought and fulfilled as production does: the sandbox's staker in
 * 100 subnets (2025/26, a year of half-hour blocks collected and published by the real pipeline), paid
 * through the Stripe stand-in's signed webhook and built by the real fulfilment job against the sandbox chain
 * at 20 ms a request, with a lease shorter than the build, while a second worker polls all along and support
 * runs `orders show`. Built exactly once, its progress shown, and the stored pack holds its 200 positions.
 */
import { describe, expect, it } from 'vitest';
import { bigPackWorld } from '../../bench/big-pack-world.js';
import { builtOnce, fulfilBigOrder, shownPhases, shownSize } from './big-order.js';

describe('a 200-position full-year pack bought and fulfilled', () => {
  it('is built exactly once through a lease shorter than the build, with its progress shown', async () => {
    const world = await bigPackWorld();
    // A lease of 15 s, shorter than the build (20 s alone on two cores, longer beside the other tests), so the
    // worker renews it while it builds; the pack's longest synchronous step is a second or two.
    const outcome = await fulfilBigOrder(world, { latencyMs: 20, leaseMs: 15_000 });
    const failures = [...outcome.report.failed, ...outcome.others.flatMap((o) => o.failed)];
    expect(failures.map((f) => f.error)).toEqual([]);
    expect(outcome.status).toBe('fulfilled');
    expect(builtOnce(outcome), JSON.stringify(outcome.builds)).toBe(true);
    // The second worker polled while the first one built, and took nothing.
    expect(outcome.others.length).toBeGreaterThan(0);
    expect(shownPhases(outcome), outcome.progress.join('\n')).toEqual(
      expect.arrayContaining(['reading the chain', 'writing the files']),
    );
    expect(shownSize(outcome), outcome.progress.join('\n')).toBe(true);
    expect(outcome.positions).toBe(200);
    expect(outcome.positionDays).toBeGreaterThan(200 * 365);
  }, 900_000);
});
