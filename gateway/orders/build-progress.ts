import type { BuildProgress } from '../state/order-state.js';

export type { BuildProgress };

/**
 * The time a build takes: a fixed part (the published objects read, the chain's reader opened, the zip
 * stored), a part for each chain block it reads (the stake of every position at that block, over the network)
 * and a part for each position-day (its income, gains, reconciliation and CSV rows worked out). Fitted to the
 * pack bench's full-year packs at 20 ms a read on a shared two-core machine (docs/benchmarks.md, "Packs of
 * 10, 50 and 200 positions"), the progress each build recorded and its time: the demo coldkey (18 positions ×
 * 369 days, 1,654 blocks) in 8.4 s, the validator (49 × 369, 373 blocks) in 4.8 s, the staker in 100 subnets
 * (200 × 369, 1,106 blocks) in 17.3 s. The blocks matter as much as the positions: the demo coldkey reads four
 * times the validator's blocks. Every measured build is within 2x of its estimate, on the cautious side.
 */
export const BUILD_FIXED_SECONDS = 3;
export const BUILD_SECONDS_PER_BLOCK = 0.0045;
export const BUILD_SECONDS_PER_POSITION_DAY = 0.00017;
/** A build's blocks a day before it has counted them: the most of the measured coldkeys (the demo's 4.5). */
const BLOCKS_A_DAY_NOT_COUNTED = 4.5;
/** A pack expected to take longer than this is "big": its buyer is told, with the estimate. */
export const BIG_PACK_SECONDS = 120;

/** The estimated build time in whole seconds, from its size as the worker records it (docs/api.md, "Big packs"). */
export function estimatedBuildSeconds(size: Pick<BuildProgress, 'positions' | 'days' | 'blocks'>): number {
  const blocks = size.blocks > 0 ? size.blocks : size.days * BLOCKS_A_DAY_NOT_COUNTED;
  return Math.round(
    BUILD_FIXED_SECONDS +
      blocks * BUILD_SECONDS_PER_BLOCK +
      size.positions * size.days * BUILD_SECONDS_PER_POSITION_DAY,
  );
}

/** A readable duration, rounded up to whole minutes past one minute ("about 7 minutes"). */
export function roughly(seconds: number): string {
  if (seconds < 90) return 'about a minute';
  return `about ${Math.ceil(seconds / 60)} minutes`;
}

export function isBigPack(progress: BuildProgress): boolean {
  return estimatedBuildSeconds(progress) > BIG_PACK_SECONDS;
}

/** One line for the operator (`orders show`): the phase, the blocks read of the total, the estimate. */
export function progressLine(progress: BuildProgress, now: Date): string {
  const elapsed = Math.max(0, Math.round((now.getTime() - Date.parse(progress.startedAt)) / 1000));
  const size =
    progress.days > 0
      ? `${progress.positions} positions × ${progress.days} days (estimated ${estimatedBuildSeconds(progress)} s)`
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
    estimated_seconds: progress.positions > 0 ? estimatedBuildSeconds(progress) : null,
    started_at: progress.startedAt,
    updated_at: progress.updatedAt,
  };
}
