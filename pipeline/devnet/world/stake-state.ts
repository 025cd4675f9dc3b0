// The staking state at one block and the share-pool arithmetic over it, shared by stakers.ts and the
// modules that change it (the AlphaV2 migration, limit orders) without a cycle.
import {
  fromU64F64,
  isZero,
  SAFE_FLOAT_ZERO,
  type SafeFloat,
  shareValue,
  updateValueForOne,
} from './safe-float.js';

/** U64F64 fixed point: V1 shares are stored as bits, one share is 2^64. */
export const SHARE_ONE = 1n << 64n;

/**
 * A hotkey's share pool on one subnet: `TotalHotkeyAlpha` and `TotalHotkeyShares` (U64F64 bits); once
 * written from spec 425 on the denominator lives in `TotalHotkeySharesV2` (`v2`) and `shares` is 0.
 */
export interface SharePool {
  alpha: bigint;
  shares: bigint;
  v2?: SafeFloat;
}

/** Staking state at one block. */
export interface StakeState {
  pools: Map<string, SharePool>;
  /** Per staker: pool key → share bits (`Alpha`). */
  shares: Map<string, bigint>[];
  /** Per staker: pool key → `AlphaV2` share, for entries written from spec 425 on (no `Alpha` entry then). */
  sharesV2: Map<string, SafeFloat>[];
  free: bigint[];
  /** A world placed by date, once a TAO mechanism ran (tao-mechanisms.ts): per staker, reserved TAO and TAO on
   * its own EVM address. */
  reserved?: bigint[];
  evm?: bigint[];
  /** Per staker: TAO locked by a network registration it may get back (network-lock.ts). */
  locked?: bigint[];
  /**
   * Spec 473's AlphaV2 migration (`migrations/migrate_alpha_v2.rs`, storage alias `AlphaV2Migration`): absent
   * before it is scheduled; `phase` 0 legacy rows, 1 leftover denominators, 2 the V2 sweep, 3 done; `after`
   * is the storage-key suffix of the last committed row (the cursor).
   */
  migration?: { phase: 0 | 1 | 2 | 3; after: string | null };
}

export const NO_V2_SHARES: Map<string, SafeFloat> = new Map();

export function cloneState(state: StakeState): StakeState {
  return {
    pools: new Map([...state.pools].map(([key, pool]) => [key, { ...pool }])),
    shares: state.shares.map((m) => new Map(m)),
    // Copy on write: until spec 425 writes a V2 share every map is the shared empty one.
    sharesV2: state.sharesV2.map((m) => (m.size === 0 ? NO_V2_SHARES : new Map(m))),
    free: [...state.free],
    ...(state.reserved ? { reserved: [...state.reserved] } : {}),
    ...(state.evm ? { evm: [...state.evm] } : {}),
    ...(state.locked ? { locked: [...state.locked] } : {}),
    ...(state.migration ? { migration: { ...state.migration } } : {}),
  };
}

/**
 * A holder's alpha as spec 425 reads it (`staking/stake_utils.rs` `get_share`/`get_denominator`,
 * `primitives/share-pool` `get_value`): the `Alpha` (V1) entry if there is one, else `AlphaV2`; the
 * `TotalHotkeyShares` denominator if there is one, else `TotalHotkeySharesV2`; then
 * `TotalHotkeyAlpha × share ÷ denominator` in SafeFloat arithmetic, floored.
 */
export function currentAlphaOf(state: StakeState, stakerIndex: number, key: string): bigint {
  const pool = state.pools.get(key);
  if (!pool) return 0n;
  return shareValue(pool.alpha, shareOf(state, stakerIndex, key), denominatorOf(pool));
}

export function shareOf(state: StakeState, stakerIndex: number, key: string): SafeFloat {
  const v1 = state.shares[stakerIndex]!.get(key) ?? 0n;
  if (v1 > 0n) return fromU64F64(v1);
  return state.sharesV2[stakerIndex]!.get(key) ?? SAFE_FLOAT_ZERO;
}

export function denominatorOf(pool: SharePool): SafeFloat {
  return pool.v2 ?? fromU64F64(pool.shares);
}

/** Alpha of a share holding: shares × TotalHotkeyAlpha / TotalHotkeyShares, floored (as the chain does). */
export function alphaOf(pool: SharePool | undefined, shares: bigint): bigint {
  if (!pool || pool.shares === 0n) return 0n;
  return (shares * pool.alpha) / pool.shares;
}

export function setShare(state: StakeState, stakerIndex: number, key: string, share: SafeFloat): void {
  state.shares[stakerIndex]!.delete(key);
  let own = state.sharesV2[stakerIndex]!;
  if (isZero(share)) {
    own.delete(key);
    return;
  }
  if (own === NO_V2_SHARES) {
    own = new Map();
    state.sharesV2[stakerIndex] = own;
  }
  own.set(key, share);
}

/** `increase_stake_for_hotkey_and_coldkey_on_subnet` from spec 425 on. */
export function addShares(state: StakeState, stakerIndex: number, key: string, alpha: bigint): void {
  if (alpha === 0n) return;
  let pool = state.pools.get(key);
  if (!pool) {
    pool = { alpha: 0n, shares: 0n, v2: SAFE_FLOAT_ZERO };
    state.pools.set(key, pool);
  }
  const update = updateValueForOne(pool.alpha, shareOf(state, stakerIndex, key), denominatorOf(pool), alpha);
  pool.alpha += alpha;
  pool.v2 = update.denominator;
  pool.shares = 0n;
  setShare(state, stakerIndex, key, update.share);
}

/** `decrease_stake_for_hotkey_and_coldkey_on_subnet`: nothing when the holder has less than `alpha`. */
export function removeShares(state: StakeState, stakerIndex: number, key: string, alpha: bigint): void {
  const pool = state.pools.get(key);
  if (!pool || alpha === 0n || currentAlphaOf(state, stakerIndex, key) < alpha) return;
  const update = updateValueForOne(pool.alpha, shareOf(state, stakerIndex, key), denominatorOf(pool), -alpha);
  pool.alpha -= alpha;
  pool.v2 = update.denominator;
  pool.shares = 0n;
  setShare(state, stakerIndex, key, update.share);
}
