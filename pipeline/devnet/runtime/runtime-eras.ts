import { alphaBurnEvents, beforeAutoStake, beforeLeases } from './derived-metadata.js';
import { type MetadataFile, readDerived, readRealBlob, readSpec425, readSpec473 } from './metadata-files.js';

/**
 * What the product's readers can tell apart between runtimes: each flag is a behaviour the sandbox's world
 * reproduces from the spec on where it starts (docs/sandbox.md, "Runtimes by date").
 */
export interface RuntimeFeatures {
  /** `StakeAdded`/`StakeRemoved` carry the fee as a sixth field (spec 257 on; five fields before). */
  stakeEventFee: boolean;
  /** `burn_alpha` and `recycle_alpha` exist: `AlphaBurned`, `AlphaRecycled` (spec 257 on). */
  alphaBurns: boolean;
  /**
   * Staking is priced and charged through the swap pallet (spec 283 on): the fee is the pool's fee rate.
   * Before it a flat `DefaultStakingFee` of 50,000 rao.
   */
  swapPallet: boolean;
  /**
   * The swap pallet's fee rate in hundredths of a percent: 30 (0.3 %, `DefaultFeeRate` 196 of 65,535) from
   * spec 283, 5 (0.05 %, 33 of 65,535) from spec 297; 0 before the swap pallet.
   */
  swapFeeBasisPoints: number;
  /** Subnet leases and the staking rate limiter (spec 285 on). */
  leases: boolean;
  /** Auto-stake (`AutoStakeDestination`, `AutoStakeAdded`) (spec 315 on). */
  autoStake: boolean;
  /** Root claims (`RootClaimable`, `RootClaimed`) (spec 334 on). */
  rootClaims: boolean;
  /** Subnet buybacks, `add_stake_burn` (`AddStakeBurn`) (spec 393 on). */
  buybacks: boolean;
  /** V2 share maps (`AlphaV2`, `TotalHotkeySharesV2`) and the demo's spec-425 life (spec 425 on). */
  v2Shares: boolean;
  /** The V1 share maps retired and the AlphaV2 migration (spec 473 on). */
  v1SharesRetired: boolean;
}

/** One runtime the sandbox can run: a spec and every later spec the readers cannot tell from it. */
export interface RuntimeEraSpec {
  /** The spec_version the sandbox serves for the era (the first spec of the group). */
  spec: number;
  /** The specs of mainnet that the era stands for, e.g. `233–256`. */
  specs: string;
  /** UTC date the era's first spec reached opentensor/subtensor's main branch (mainnet ran it from then). */
  mainnetFrom: string;
  /** Where its metadata comes from: a real blob, or the nearest blob changed as the source says. */
  metadataSource: string;
  features: RuntimeFeatures;
  metadata(): MetadataFile;
}

const NONE: RuntimeFeatures = {
  stakeEventFee: false,
  alphaBurns: false,
  swapPallet: false,
  swapFeeBasisPoints: 0,
  leases: false,
  autoStake: false,
  rootClaims: false,
  buybacks: false,
  v2Shares: false,
  v1SharesRetired: false,
};

/**
 * Every runtime of the sandbox, in mainnet's order, from dTAO's launch on: the one place a new runtime's
 * behaviour goes. Dates are when each spec_version reached opentensor/subtensor's main (first-parent merges
 * of `runtime/src/lib.rs`); specs between two rows whose metadata differs only in what no reader of this
 * project reads (other pallets' items, variant indexes, which are read by name) are grouped into the row
 * before them. After 393 mainnet ran 397 and 402 before 425; the sandbox keeps 393 until its 425 stand-in.
 */
export const RUNTIME_ERAS: readonly RuntimeEraSpec[] = [
  {
    spec: 233,
    specs: '233–256',
    mainnetFrom: '2025-02-13',
    metadataSource: 'real blob (finney-spec233-v15.hex)',
    features: NONE,
    metadata: () => readRealBlob(233),
  },
  {
    spec: 257,
    specs: '257–282',
    mainnetFrom: '2025-03-28',
    metadataSource: 'spec 233 blob + six-field stake events, AlphaBurned, AlphaRecycled',
    features: { ...NONE, stakeEventFee: true, alphaBurns: true },
    metadata: () => readDerived(257, 233, [alphaBurnEvents]),
  },
  {
    spec: 283,
    specs: '283–284',
    mainnetFrom: '2025-06-30',
    metadataSource: 'spec 315 blob without leases and auto-stake',
    features: { ...NONE, stakeEventFee: true, alphaBurns: true, swapPallet: true, swapFeeBasisPoints: 30 },
    metadata: () => readDerived(283, 315, beforeLeases),
  },
  {
    spec: 285,
    specs: '285–296',
    mainnetFrom: '2025-07-01',
    metadataSource: 'spec 315 blob without auto-stake',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 30,
      leases: true,
    },
    metadata: () => readDerived(285, 315, beforeAutoStake),
  },
  {
    spec: 297,
    specs: '297–314',
    mainnetFrom: '2025-07-23',
    metadataSource: 'spec 315 blob without auto-stake (as 285)',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
    },
    metadata: () => readDerived(297, 315, beforeAutoStake),
  },
  {
    spec: 315,
    specs: '315–319',
    mainnetFrom: '2025-09-09',
    metadataSource: 'real blob (finney-spec315-v15.hex)',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
    },
    metadata: () => readRealBlob(315),
  },
  {
    spec: 320,
    specs: '320–333',
    mainnetFrom: '2025-09-24',
    metadataSource: 'real blob (finney-spec320-v15.hex)',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
    },
    metadata: () => readRealBlob(320),
  },
  {
    spec: 334,
    specs: '334–342',
    mainnetFrom: '2025-11-04',
    metadataSource: 'spec 343 blob, spec_version 334',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
      rootClaims: true,
    },
    metadata: () => readDerived(334, 343, []),
  },
  {
    spec: 343,
    specs: '343–392',
    mainnetFrom: '2025-11-07',
    metadataSource: 'real blob (finney-spec343-v15.hex)',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
      rootClaims: true,
    },
    metadata: () => readRealBlob(343),
  },
  {
    spec: 393,
    specs: '393–424',
    mainnetFrom: '2026-03-25',
    metadataSource: 'real blob (finney-spec393-v16.scale)',
    features: {
      ...NONE,
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
      rootClaims: true,
      buybacks: true,
    },
    metadata: () => readRealBlob(393),
  },
  {
    spec: 425,
    specs: '425–472',
    mainnetFrom: '2026-06-30',
    metadataSource: 'spec 393 blob + V2 share maps, SafeFloat, TransactionFeePaidWithAlpha',
    features: {
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
      rootClaims: true,
      buybacks: true,
      v2Shares: true,
      v1SharesRetired: false,
    },
    metadata: readSpec425,
  },
  {
    spec: 473,
    specs: '473–',
    mainnetFrom: '2026-10-05',
    metadataSource: 'the spec-425 stand-in without the V1 share maps, with LimitOrders',
    features: {
      stakeEventFee: true,
      alphaBurns: true,
      swapPallet: true,
      swapFeeBasisPoints: 5,
      leases: true,
      autoStake: true,
      rootClaims: true,
      buybacks: true,
      v2Shares: true,
      v1SharesRetired: true,
    },
    metadata: readSpec473,
  },
];

export function runtimeEra(spec: number): RuntimeEraSpec {
  const era = RUNTIME_ERAS.find((e) => e.spec === spec);
  if (!era) throw new Error(`devnet: the sandbox has no runtime of spec ${spec}`);
  return era;
}

/** The era mainnet ran on a UTC date (`YYYY-MM-DD`); dates before dTAO's launch get its first runtime. */
export function mainnetEraOn(date: string): RuntimeEraSpec {
  let found = RUNTIME_ERAS[0]!;
  for (const era of RUNTIME_ERAS) if (era.mainnetFrom <= date) found = era;
  return found;
}
