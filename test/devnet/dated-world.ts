/**
 * A sandbox world whose runtimes are placed by mainnet's dates: it begins at dTAO's launch (13 February 2025)
 * and stands at 15:00 UTC on 27 November 2026, so it holds every runtime from spec 233 to spec 473. Its blocks
 * are ten minutes apart (144 a day) to keep a 652-day history fast; the dates, not the block numbers, decide
 * which runtime runs a block.
 */
import { type DevnetOptions, defaultDevnetOptions } from '../../pipeline/devnet/index.js';

const DAY_MS = 86_400_000;
export const DATED_GENESIS = new Date('2025-02-13T00:00:00Z');
export const DATED_NOW_MS = Date.parse('2026-11-27T15:00:00Z');

export const DATED_OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'dated',
  genesis: DATED_GENESIS,
  historyDays: Math.floor((DATED_NOW_MS - DATED_GENESIS.getTime()) / DAY_MS),
  blockTimeMs: 600_000,
  port: 0,
  pricePort: 0,
  now: () => DATED_NOW_MS,
};
