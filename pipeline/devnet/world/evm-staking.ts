/**
 * Staking through the EVM staking precompile, lived by the demo coldkey in January 2026 (tax year 2025/26,
 * spec 343's era) in a world placed by date, with the TAO it holds on its own EVM address (`tao-mechanisms.ts`'s
 * round trip). Read from opentensor/subtensor at commit f86204dc4 (15 November 2025, the source of the 343
 * era): `precompiles/src/staking.rs` and `precompiles/src/extensions.rs`.
 * - `StakingPrecompileV2` (index 2053, address 0x…0805; on main from b61dd3020, 19 March 2025, spec 252):
 *   `addStake(bytes32 hotkey, uint256 amount_rao, uint256 netuid)` and `removeStake(bytes32 hotkey, uint256
 *   amount_alpha, uint256 netuid)` dispatch `SubtensorModule::add_stake` / `remove_stake` with origin
 *   `Signed(caller_account_id)`: the caller's EVM address mapped by `HashedAddressMapping<BlakeTwo256>`, the
 *   account `blake2_256("evm:" ++ address)` that holds the address's TAO. Amounts are rao (TAO) and alpha rao.
 *   The older `StakingPrecompile` (index 2049, 0x…0801, from 4e2c494cd, 25 November 2024) took the TAO as the
 *   transaction's value in wei (18 decimals, converted to rao) and the same origin.
 * - So the stake's coldkey is that mapped account: `StakeAdded(mapped, hotkey, tao, alpha, netuid, fee)` and
 *   `StakeRemoved(…)` name it, its `Alpha` entry and `StakingHotkeys` are under it, and
 *   `get_stake_info_for_coldkey(mapped)` lists the position. The call's TAO leaves (and the unstake's returns
 *   to) the mapped account's free balance. Emissions grow it as any stake on the hotkey.
 * - The extrinsic is an unsigned `Ethereum.transact`; after the call's events come `EVM.Executed { address:
 *   precompile }` and `Ethereum.Executed { from, to: precompile, transaction_hash, exit_reason, extra_data }`.
 *   It pays no `TransactionFeePaid`: the EVM's gas is charged by `pallet_evm` (`OnChargeTransaction = ()`)
 *   from the mapped account. The sandbox does not model that gas (see `docs/sandbox.md`).
 * The mapped account is a staker of the world (after every other, so their indices and draws are unchanged)
 * whose free TAO stays 0 there: its TAO is `StakeState.evm` of the demo between the calls (`System.Account`
 * of the mapped account is served from it).
 */
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import type { Account } from './accounts.js';
import { datedLifeBlock } from './dated-life.js';
import type { Position } from './position.js';
import { SHARE_ONE, type StakeState } from './stake-state.js';
import type { EvmStakingKind, Staker, StakingAction } from './staking-action.js';
import { evmMappedAccount, ownEvmAddress } from './tao-mechanisms.js';
import type { Timeline } from './timeline.js';
import type { WorldEvent } from './world-event.js';

/** UTC date and hour of each call: staked after the EVM deposit of 13 January, unstaked before its withdrawal. */
export const EVM_STAKING_SCHEDULE: ReadonlyArray<[EvmStakingKind, string, number]> = [
  ['EvmStakeAdded', '2026-01-13', 14],
  ['EvmStakeRemoved', '2026-01-15', 8],
];

/** `StakingPrecompileV2`'s address: the precompile index 2053 as an H160. */
export const STAKING_PRECOMPILE_V2 = (() => {
  const address = new Uint8Array(20);
  address[18] = 0x08;
  address[19] = 0x05;
  return address;
})();

export interface EvmStakingStep {
  block: number;
  kind: EvmStakingKind;
}

/** The calls that fall inside the world (a date before genesis has none). */
export function planEvmStaking(timeline: Timeline): EvmStakingStep[] {
  const steps: EvmStakingStep[] = [];
  for (const [kind, date, hour] of EVM_STAKING_SCHEDULE) {
    const block = datedLifeBlock(timeline, date, hour);
    if (block !== null) steps.push({ block, kind });
  }
  return steps;
}

export function isEvmStaking(action: StakingAction): boolean {
  return action.kind === 'EvmStakeAdded' || action.kind === 'EvmStakeRemoved';
}

/**
 * The account of the demo's own EVM address as a staker: its one position is on the demo's first subnet
 * (not root), with the demo's hotkey there. It draws nothing.
 */
export function evmStaker(demo: Staker, index: number): Staker {
  const position: Position = demo.positions.find((p) => p.netuid !== 0) ?? demo.positions[0]!;
  const coldkey: Account = evmMappedAccount(ownEvmAddress(demo.coldkey));
  return { index, coldkey, demo: false, positions: [position], drawable: [], hotkeys: [position.hotkey] };
}

/**
 * What a call does (V1 shares, as every call of spec 343's era): the stake's TAO leaves the EVM address's
 * balance for the pool, the unstake's comes back to it.
 */
export function applyEvmStaking(
  state: StakeState,
  action: StakingAction,
  demo: number,
  mapped: Staker,
): void {
  if (!state.evm) state.evm = state.free.map(() => 0n);
  if (!state.reserved) state.reserved = state.free.map(() => 0n);
  const key = mapped.positions[0]!.pool;
  const pool = state.pools.get(key)!;
  const own = state.shares[mapped.index]!;
  const alpha = action.alpha!;
  if (action.kind === 'EvmStakeAdded') {
    const shares = pool.alpha === 0n ? alpha * SHARE_ONE : (alpha * pool.shares) / pool.alpha;
    pool.alpha += alpha;
    pool.shares += shares;
    own.set(key, (own.get(key) ?? 0n) + shares);
    state.evm[demo]! -= action.tao;
    return;
  }
  const held = own.get(key) ?? 0n;
  const wanted = (alpha * pool.shares + pool.alpha - 1n) / pool.alpha;
  const shares = held < wanted ? held : wanted;
  pool.alpha -= alpha;
  pool.shares -= shares;
  if (held - shares === 0n) own.delete(key);
  else own.set(key, held - shares);
  state.evm[demo]! += action.tao;
}

/**
 * The extrinsic's events: the call's own `StakeAdded`/`StakeRemoved` (as the runtime of the day emits it,
 * given), then the EVM's and Ethereum's outcome naming the precompile.
 */
export function evmStakingEvents(action: StakingAction, stakeEvent: WorldEvent): WorldEvent[] {
  const from = ownEvmAddressOfMapped(action);
  const hash = blake2AsU8a(
    u8aConcat(new TextEncoder().encode(`evm-staking/${action.block}/${action.kind}`), from),
    256,
  );
  return [
    stakeEvent,
    { pallet: 'EVM', name: 'Executed', args: [STAKING_PRECOMPILE_V2] },
    {
      pallet: 'Ethereum',
      name: 'Executed',
      args: [from, STAKING_PRECOMPILE_V2, hash, { Succeed: 'Returned' }, '0x'],
    },
  ];
}

/** The EVM address behind the mapped account (its label carries it: `evm/0x…`). */
function ownEvmAddressOfMapped(action: StakingAction): Uint8Array {
  const hex = action.coldkey.label.startsWith('evm/') ? action.coldkey.label.slice(4) : null;
  if (!hex) throw new Error('evm staking: the coldkey is no EVM address');
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

/** The mapped account's hex, for the truth and the tests. */
export function evmStakerHex(demo: Account): string {
  return u8aToHex(evmMappedAccount(ownEvmAddress(demo)).publicKey);
}
