import type { BuildProgress } from '../state/order-state.js';

export type { BuildProgress };

/**
 * The time a build takes: a fixed part (the published objects read, the PDF written) and a part for each
 * position-day (a position's stake read at one day's end block, and decoded). Measured on the sandbox:
 * the demo coldkey's 2025/26 pack, 14 positions over 368 days (5,152 position-days), built in 38 s on a
 * shared two-core machine at the sandbox's default latency: 15 s + 5,152 × 4.5 ms ≈ 38 s.
 */
export const BUILD_FIXED_SECONDS = 15;
export const BUILD_SECONDS_PER_POSITION_DAY = 0.0045;
/** A pack expected to take longer than this is "big": its buyer is told, with the estimate. */
export const BIG_PACK_SECONDS = 120;

/** The estimated build time in whole seconds, from the positions and days (docs/api.md, "Big packs"). */
export function estimatedBuildSeconds(positions: number, days: number): number {
  return Math.round(BUILD_FIXED_SECONDS + positions * days * BUILD_SECONDS_PER_POSITION_DAY);
}

/** A readable duration, rounded up to whole minutes past one minute ("about 7 minutes"). */
export function roughly(seconds: number): string {
  if (seconds < 90) return 'about a minute';
  return `about ${Math.ceil(seconds / 60)} minutes`;
}

export function isBigPack(progress: BuildProgress): boolean {
  return estimatedBuildSeconds(progress.positions, progress.days) > BIG_PACK_SECONDS;
}

/** One line for the operator (`orders show`): the phase, the blocks read of the total, the estimate. */
export function progressLine(progress: BuildProgress, now: Date): string {
  const elapsed = Math.max(0, Math.round((now.getTime() - Date.parse(progress.startedAt)) / 1000));
  const size =
    progress.days > 0
      ? `${progress.positions} positions × ${progress.days} days (estimated ${estimatedBuildSeconds(progress.positions, progress.days)} s)`
      : 'size not known yet';
  const share = progress.blocks > 0 ? ` ${progress.blocksRead} / ${progress.blocks} blocks read,` : '';
  return `build: ${PHASE_NAMES[progress.phase]},${share} ${size}; started ${progress.startedAt}, ${elapsed} s ago; last heard ${progress.updatedAt}`;
}

const PHASE_NAMES: Record<BuildProgress['phase'], string> = {
  starting: 'starting',
  'reading-chain': 'reading the chain',
  'writing-files': 'writing the files',
};

export function progressJson(progress: BuildProgress): Record<string, unknown> {
  return {
    phase: progress.phase,
    positions: progress.positions,
    days: progress.days,
    blocks_read: progress.blocksRead,
    blocks: progress.blocks,
    estimated_seconds:
      progress.positions > 0 ? estimatedBuildSeconds(progress.positions, progress.days) : null,
    started_at: progress.startedAt,
    updated_at: progress.updatedAt,
  };
}
