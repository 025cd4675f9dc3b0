import { describe, expect, it } from 'vitest';
import { gapThresholdMs, windowCoverage } from '../../pipeline/emissions/coverage.js';

const H = 3_600_000;
const gap = { fromMs: 10 * H, toMs: 13 * H, fromBlock: 100, toBlock: 130 };

describe('coverage of a window', () => {
  it('is complete when collection began by the window start and no gap overlaps it', () => {
    expect(windowCoverage({ startMs: 14 * H, endMs: 20 * H }, 0, [gap])).toEqual({
      coverage: 'complete',
      collection_began: '1970-01-01T00:00:00.000Z',
      gaps: [],
    });
  });

  it('is partial with the gap listed when a gap overlaps the window', () => {
    const coverage = windowCoverage({ startMs: 12 * H, endMs: 20 * H }, 0, [gap]);
    expect(coverage.coverage).toBe('partial');
    expect(coverage.gaps).toEqual([
      { from: '1970-01-01T10:00:00.000Z', to: '1970-01-01T13:00:00.000Z', from_block: 100, to_block: 130 },
    ]);
  });

  it('is partial when collection began after the window start, and says when it began', () => {
    expect(windowCoverage({ startMs: 2 * H, endMs: 20 * H }, 3 * H, [])).toMatchObject({
      coverage: 'partial',
      collection_began: '1970-01-01T03:00:00.000Z',
      gaps: [],
    });
  });

  it('calls samples further apart than 1.5 intervals a gap', () => {
    expect(gapThresholdMs(300_000)).toBe(450_000);
  });
});
