/**
 * The move search reads the midpoints of two steps at once (`locate-moves.ts`): it must take the steps, and
 * find the block, a binary search reading one block a step finds, for any answer the chain gives (a swap
 * moves the stake at once, but a position can also rise and fall within a day, so the answers need not be
 * monotonic).
 */
import { describe, expect, it } from 'vitest';
import { searchFirstFallen } from '../../../../pipeline/tax/chain-record/actions/locate-moves.js';

/** The search as it was: one block read a step. */
async function oneAStep(lo: number, hi: number, fell: (block: number) => Promise<boolean>) {
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (await fell(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** A repeatable pseudo-random sequence (xorshift), so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

describe('the move search', () => {
  it('finds the block one read a step finds, in fewer rounds, for monotonic and scattered answers', async () => {
    const next = random(52);
    for (let trial = 0; trial < 2_000; trial++) {
      const lo = Math.floor(next() * 10_000);
      const hi = lo + 1 + Math.floor(next() * (trial % 2 === 0 ? 60 : 5_000));
      const cut = lo + 1 + Math.floor(next() * (hi - lo));
      const scattered = new Map<number, boolean>();
      const answer =
        trial % 3 === 0
          ? (block: number) => block >= cut
          : (block: number) => {
              if (!scattered.has(block)) scattered.set(block, next() < 0.5);
              return scattered.get(block)!;
            };
      const asked: number[] = [];
      let rounds = 0;
      let inFlight = 0;
      const fell = async (block: number) => {
        asked.push(block);
        if (inFlight++ === 0) rounds += 1;
        await Promise.resolve();
        inFlight -= 1;
        return answer(block);
      };
      const expected = await oneAStep(lo, hi, async (block) => answer(block));
      expect(await searchFirstFallen(lo, hi, fell)).toBe(expected);
      // No block is read twice, and a day of 48 blocks takes 3 rounds rather than 6.
      expect(new Set(asked).size).toBe(asked.length);
      if (hi - lo === 48) expect(rounds).toBe(3);
    }
  });
});
