import { describe, expect, it } from 'vitest';
import { progressFor } from '../../pipeline/collect/progress.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns: 100, write: (text: string) => chunks.push(text) };
}

const REPORT = {
  day: '2025-01-01',
  firstBlock: 0,
  lastBlock: 7199,
  burns: 3,
  stakingEvents: 1,
  partial: false,
  seconds: 2,
};

describe('progress', () => {
  it('off a terminal: one line per day and no control characters', () => {
    const out = stream(false);
    let now = 0;
    const progress = progressFor(out, () => now);
    progress.start(3 * 7200);
    now = 4_000;
    progress.blocks(7200);
    progress.dayDone(REPORT);
    progress.finish();
    // The day's own rate, then the run's: 7,200 blocks in 4 s leave 14,400 for 8 s.
    expect(out.chunks).toEqual([
      'collected 2025-01-01: blocks 0-7199, 3 burns, 1 staking events, 2.0 s, 3600 blocks/s; ' +
        '7200/21600 blocks, 1800 blocks/s, 8s left\n',
    ]);
  });

  it('on a terminal: a bar with blocks per second and time left', () => {
    const out = stream(true);
    let now = 0;
    const progress = progressFor(out, () => now);
    progress.start(1000);
    now = 2_000;
    progress.blocks(500);
    const last = out.chunks[out.chunks.length - 1]!;
    expect(last).toContain('500/1000 blocks');
    expect(last).toContain('250/s');
    expect(last).toContain('2s left');
    expect(last.startsWith('\r')).toBe(true);
  });
});
