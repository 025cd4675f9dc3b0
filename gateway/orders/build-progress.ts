import type { BuildProgress } from '../state/order-state.js';

export type { BuildProgress };

/**
 * The time a build takes: a fixed part (the published objects read, the opening positions found, the PDF
 * written) and a part for each position-day (a position's stake read at one day's end block, decoded, and its
 * income, gains and reconciliation worked out). Fitted to the pack bench's full-year packs at 20 ms a read on
 * a shared two-core machine (docs/benchmarks.md, "Packs of 10, 50 and 200 positions"): the demo coldkey's
 * 5,115 position-days in 12.5 s and the staker in 100 subnets' 73,000 in 42-44 s give 8 s + 0.48 ms a
 * position-day: 10.5 s and 43 s. The validator's 17,885 (8.5 s, fewer reads a day) is estimated at 17 s:
 * every measured build is within 2x of its estimate.
 */
export const BUILD_FIXED_SECONDS = 8;
export const BUILD_SECONDS_PER_POSITION_DAY = 0.00048;
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
