import { encodeKey } from '../chain/storage-keys.js';
import type { Account } from './accounts.js';
import { burnAccount } from './protocol-accounts.js';
import { fromU64F64, isZero, SAFE_FLOAT_ZERO, type SafeFloat, sub } from './safe-float.js';
import {
  currentAlphaOf,
  denominatorOf,
  NO_V2_SHARES,
  removeShares,
  type SharePool,
  type StakeState,
  setShare,
} from './stake-state.js';
import type { MigrationBlock, Staker } from './staking-action.js';
import { subnetAccount } from './subnet-account.js';
import type { WorldEvent } from './world-event.js';

/**
 * Spec 473's migration `migrate_alpha_v2_and_unstake_dust_v1` (RaoFoundation/subtensor
 * `pallets/subtensor/src/migrations/migrate_alpha_v2.rs`, v473 = f87cada6; the variant with the 1,000-rao
 * floor and the fee-free executable valuation), one block of its `on_idle` work at a time:
 *
 * - phase 0, every legacy `Alpha` row in storage-key order: `convert_row` (the row and, if still V1, its
 *   hotkey's `TotalHotkeyShares` become V2 by `SafeFloat::from(U64F64)`), then the row is valued
 *   (`executable_tao_value`: 1:1 on root, else the fee-free sale of its alpha against the pool); under
 *   1,000 rao it is deleted (`delete_dust`), from 1,000 to 3,000,000 rao it is unstaked to its own coldkey
 *   (`unstake_from_subnet` with `drop_fees`: a `Balances.Transfer` from the subnet account, then
 *   `StakeRemoved(coldkey, hotkey, tao, alpha, netuid, 0)`); a payout that would leave stake is deferred
 *   (the row stays V1 and the pass restarts next block);
 * - phase 1, any `TotalHotkeyShares` left becomes V2;
 * - phase 2, one sweep of every `AlphaV2` row: under 1,000 rao it is deleted (V2 rows are never paid out);
 * - at the end of each block the dust's TAO collected on root's account is burned (`flush_burn`:
 *   `burn_tao`, a `Balances.Transfer` to the `burntnsr` account, which already holds TAO on mainnet);
 *   the block whose sweep cursor runs out completes the migration (phase 3).
 *
 * A deletion (`delete_dust` + `collect_burn`) takes the position's alpha off `TotalHotkeyAlpha` and its share
 * off the denominator; on the chain it also returns the alpha to `SubnetAlphaIn` (taking it off
 * `SubnetAlphaOut`) and the TAO value from `SubnetTAO` (moved to root's account by a `Balances.Transfer`,
 * none on root itself). No event names the holder. The sandbox's pool reserves follow their own random
 * walk, so those three are not changed here (as for every other trade); the truth records the amounts.
 *
 * Weight: the chain does what fits the block's idle weight (about 500 rows a block on mainnet); the sandbox
 * does `ROWS_PER_BLOCK` steps (rows or denominators) a block.
 */
export const ROWS_PER_BLOCK = 32;
/** Positions valued under this are deleted without a payout (`MIN_PAYOUT_TAO`). */
export const MIN_PAYOUT_TAO = 1_000n;
/** Legacy positions valued up to this (inclusive) are unstaked to their coldkey (`MAX_DUST_TAO`). */
export const MAX_DUST_TAO = 3_000_000n;

export interface MigrationContext {
  stakers: readonly Staker[];
  validators: readonly Account[];
  /** `executable_tao_value` at this block: the fee-free sale's TAO, or null when no swap can quote it. */
  executableValue(netuid: number, alpha: bigint): bigint | null;
}

interface Row {
  staker: Staker;
  pool: string;
  hotkey: Account;
  netuid: number;
  /** Storage-key suffix (hashed hotkey, coldkey, netuid): `Alpha` and `AlphaV2` share it, so it orders both. */
  key: string;
}

const KEY_PARTS = ['blake2-account', 'blake2-account', 'identity-u16'] as const;
const keyCache = new Map<string, string>();

function rowKey(hotkey: Account, coldkey: Account, netuid: number): string {
  const id = `${hotkey.hex}/${coldkey.hex}/${netuid}`;
  let key = keyCache.get(id);
  if (key === undefined) {
    key = encodeKey('0x', KEY_PARTS, [hotkey.hex, coldkey.hex, netuid]);
    if (keyCache.size > 100_000) keyCache.clear();
    keyCache.set(id, key);
  }
  return key;
}

function rowsOf(state: StakeState, ctx: MigrationContext, legacy: boolean): Row[] {
  const rows: Row[] = [];
  for (const staker of ctx.stakers) {
    const keys = legacy ? state.shares[staker.index]!.keys() : state.sharesV2[staker.index]!.keys();
    for (const pool of keys) {
      if (legacy && (state.shares[staker.index]!.get(pool) ?? 0n) === 0n) continue;
      const [hotkeyIndex, netuid] = pool.split(':').map(Number) as [number, number];
      const hotkey = ctx.validators[hotkeyIndex]!;
      rows.push({
        staker,
        pool,
        hotkey,
        netuid,
        key: rowKey(hotkey, staker.coldkey, netuid),
      });
    }
  }
  return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function transfer(from: Account, to: Account, amount: bigint): WorldEvent {
  return { pallet: 'Balances', name: 'Transfer', args: [from.publicKey, to.publicKey, amount] };
}

/** `convert_row`: the legacy share and (if still V1) its denominator become V2; the values do not change. */
function convertRow(state: StakeState, row: Row): void {
  const pool = state.pools.get(row.pool);
  if (pool && !pool.v2) {
    pool.v2 = fromU64F64(pool.shares);
    pool.shares = 0n;
  }
  const bits = state.shares[row.staker.index]!.get(row.pool) ?? 0n;
  setShare(state, row.staker.index, row.pool, fromU64F64(bits));
}

/** `delete_dust`: the alpha leaves the hotkey's pool, the share leaves the denominator, the row is removed. */
function deleteDust(state: StakeState, row: Row, alpha: bigint): void {
  const pool = state.pools.get(row.pool);
  const share = state.sharesV2[row.staker.index]!.get(row.pool) ?? SAFE_FLOAT_ZERO;
  if (pool) {
    pool.alpha -= alpha;
    if (!isZero(share)) pool.v2 = sub(denominatorOf(pool), share) ?? SAFE_FLOAT_ZERO;
    pool.shares = 0n;
  }
  state.shares[row.staker.index]!.delete(row.pool);
  setShare(state, row.staker.index, row.pool, SAFE_FLOAT_ZERO);
}

/**
 * Runs the migration's `on_idle` work of one block on `state` (scheduling it first if the upgrade has just
 * happened). Null when it has nothing left to do.
 */
export function migrateBlock(state: StakeState, ctx: MigrationContext): MigrationBlock | null {
  state.migration ??= { phase: 0, after: null };
  const progress = state.migration;
  if (progress.phase === 3) return null;
  const done: MigrationBlock = {
    rows: [],
    burned: 0n,
    burnEvent: null,
    converted: 0,
    denominators: 0,
    deferred: 0,
    completed: false,
  };
  let budget = ROWS_PER_BLOCK;
  let finished = false;
  // The rows of the pass under way, listed (and sorted) once per block: moving a row changes only its own
  // shares, so the rows after it stay as listed.
  let listed = null as { legacy: boolean; rows: Row[] } | null;
  while (budget > 0 && !finished) {
    if (progress.phase === 1) {
      const left = [...state.pools].find(([, pool]) => !pool.v2);
      if (!left) {
        progress.phase = 2;
        progress.after = null;
        continue;
      }
      const pool = left[1] as SharePool;
      pool.v2 = fromU64F64(pool.shares);
      pool.shares = 0n;
      done.denominators += 1;
      budget -= 1;
      continue;
    }
    const legacy = progress.phase === 0;
    const after = progress.after;
    if (listed?.legacy !== legacy) listed = { legacy, rows: rowsOf(state, ctx, legacy) };
    const row = listed.rows.find((r) => after === null || r.key > after);
    if (!row) {
      if (legacy) {
        progress.after = null;
        // Rows whose payout was refused stay V1: the pass starts again next block.
        if (rowsOf(state, ctx, true).length > 0) break;
        progress.phase = 1;
        continue;
      }
      finished = true;
      break;
    }
    budget -= 1;
    progress.after = row.key;
    const saved = legacy ? snapshot(state, row) : null;
    if (legacy) {
      convertRow(state, row);
      done.converted += 1;
    }
    const alpha = currentAlphaOf(state, row.staker.index, row.pool);
    const value = ctx.executableValue(row.netuid, alpha);
    if (value === null) continue;
    if (value < MIN_PAYOUT_TAO) {
      deleteDust(state, row, alpha);
      done.burned += value;
      done.rows.push({
        staker: row.staker,
        hotkey: row.hotkey,
        netuid: row.netuid,
        pool: row.pool,
        kind: 'deleted',
        legacy,
        alpha,
        tao: value,
        // collect_burn: the subnet account pays root's account (root is its own collector).
        events:
          row.netuid !== 0 && value > 0n
            ? [transfer(subnetAccount(row.netuid), subnetAccount(0), value)]
            : [],
      });
    } else if (legacy && value <= MAX_DUST_TAO) {
      removeShares(state, row.staker.index, row.pool, alpha);
      if (currentAlphaOf(state, row.staker.index, row.pool) !== 0n) {
        // `ensure!(stake now == 0)` fails: the storage layer rolls the row back, conversion included.
        restore(state, row, saved!);
        done.converted -= 1;
        done.deferred += 1;
        continue;
      }
      state.free[row.staker.index]! += value;
      done.rows.push({
        staker: row.staker,
        hotkey: row.hotkey,
        netuid: row.netuid,
        pool: row.pool,
        kind: 'unstaked',
        legacy,
        alpha,
        tao: value,
        events: [
          transfer(subnetAccount(row.netuid), row.staker.coldkey, value),
          {
            pallet: 'SubtensorModule',
            name: 'StakeRemoved',
            args: [row.staker.coldkey.publicKey, row.hotkey.publicKey, value, alpha, row.netuid, 0n],
          },
        ],
      });
    }
  }
  if (done.burned > 0n) done.burnEvent = transfer(subnetAccount(0), burnAccount(), done.burned);
  if (finished) {
    progress.phase = 3;
    progress.after = null;
    done.completed = true;
  }
  return done;
}

interface Saved {
  pool: SharePool | undefined;
  v1: bigint | undefined;
  v2: SafeFloat | undefined;
  free: bigint;
}

function snapshot(state: StakeState, row: Row): Saved {
  const pool = state.pools.get(row.pool);
  return {
    pool: pool ? { ...pool } : undefined,
    v1: state.shares[row.staker.index]!.get(row.pool),
    v2: state.sharesV2[row.staker.index]!.get(row.pool),
    free: state.free[row.staker.index]!,
  };
}

function restore(state: StakeState, row: Row, saved: Saved): void {
  if (saved.pool) state.pools.set(row.pool, saved.pool);
  if (saved.v1 !== undefined) state.shares[row.staker.index]!.set(row.pool, saved.v1);
  const own = state.sharesV2[row.staker.index]!;
  if (saved.v2 === undefined) own.delete(row.pool);
  else if (own !== NO_V2_SHARES) own.set(row.pool, saved.v2);
  state.free[row.staker.index] = saved.free;
}
