/**
 * Gaps and coverage. A *gap* is a pair of consecutive samples further apart (in block time) than
 * 1.5 × the sampling interval: at least one sample that was due is missing, and nothing is interpolated
 * over it. A window is `complete` when collection had begun by the window's start and no gap overlaps
 * the window; otherwise it is `partial`, with the overlapping gaps listed and `collection_began` saying
 * when the first sample ever was taken.
 */
export const GAP_FACTOR = 1.5;

export interface SampleGap {
  fromMs: number;
  toMs: number;
  fromBlock: number;
  toBlock: number;
}

export interface WindowCoverage {
  coverage: 'complete' | 'partial';
  collection_began: string | null;
  gaps: Array<{ from: string; to: string; from_block: number | null; to_block: number | null }>;
}

export function gapThresholdMs(intervalMs: number): number {
  return intervalMs * GAP_FACTOR;
}

export function windowCoverage(
  window: { startMs: number; endMs: number },
  collectionBeganMs: number | null,
  gaps: SampleGap[],
): WindowCoverage {
  const inside = gaps.filter((gap) => gap.toMs > window.startMs && gap.fromMs < window.endMs);
  const began = collectionBeganMs !== null && collectionBeganMs <= window.startMs;
  return {
    coverage: began && inside.length === 0 ? 'complete' : 'partial',
    collection_began: collectionBeganMs === null ? null : iso(collectionBeganMs),
    gaps: inside.map((gap) => ({
      from: iso(gap.fromMs),
      to: iso(gap.toMs),
      from_block: gap.fromBlock,
      to_block: gap.toBlock,
    })),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
