/** Order statistics of benchmark samples (nearest-rank percentiles: no interpolation to explain). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function minimum(samples: readonly number[]): number {
  return Math.min(...samples);
}

/** `PASS` or `MISS`, so a reader scanning the output finds every verdict with one word. */
export function verdict(passed: boolean): string {
  return passed ? 'PASS' : 'MISS';
}
