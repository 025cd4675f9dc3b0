/**
 * Three ways TAO leaves or returns to a coldkey besides staking, lived by the demo coldkey in January 2026
 * (tax year 2025/26, spec 343, which mainnet ran from 7 November 2025) in a world placed by date. Read from
 * opentensor/subtensor at commit f86204dc4 (15 November 2025, spec 347, the source mainnet's 343–392 era ran):
 * - **a proxy deposit** (`pallets/proxy`, `add_proxy_delegate`/`remove_proxy_delegate`; the deposit
 *   `ProxyDepositBase + ProxyDepositFactor × proxies` of `runtime/src/lib.rs`, `deposit(1, 40)` and
 *   `deposit(0, 33)` at 20,000,000 rao an item and 1,000,000 a byte: 93,000,000 rao for one proxy): `add_proxy`
 *   reserves it (`Balances.Reserved { who, amount }`, then `Proxy.ProxyAdded { delegator, delegatee,
 *   proxy_type, delay }`), `remove_proxy` returns it (`Balances.Unreserved`, `Proxy.ProxyRemoved`). Reserved
 *   TAO is `System.Account`'s `data.reserved`: still the coldkey's, not free;
 * - **a neuron registration** (`subnets/registration.rs`, `do_burned_registration`): the subnet's `Burn` is
 *   withdrawn from the coldkey's free TAO (`remove_balance_from_coldkey_account`: `Currency::withdraw`, a
 *   `Balances.Withdraw { who, amount }`), swapped for the subnet's alpha and that alpha burned (no event),
 *   then `SubtensorModule.NeuronRegistered(netuid, uid, hotkey)`, which names no coldkey;
 * - **an EVM round trip** (`pallet_evm` with `AddressMapping = HashedAddressMapping<BlakeTwo256>` and
 *   `WithdrawOrigin = EnsureAddressTruncated`, `runtime/src/lib.rs`): the coldkey's EVM address is the first 20
 *   bytes of its public key, and that address's TAO lives in the account `blake2_256("evm:" ++ address)`. TAO
 *   goes there by a plain `Balances.transfer_keep_alive` (`System.NewAccount`, `Balances.Endowed`,
 *   `Balances.Transfer`) and comes back by `EVM.withdraw(address, value)`, which only the coldkey whose key
 *   truncates to the address may call (`Balances.Transfer` from the mapped account, then
 *   `System.KilledAccount` when it is emptied).
 * Each is a call the demo coldkey signs, so each pays its transaction fee (`tao-fees.ts`). A registration's
 * swap into the subnet's pool is not modelled (the pools are the world's own series); its TAO leaves the
 * coldkey as the chain's does.
 */
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a, encodeAddress } from '@polkadot/util-crypto';
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import { type Account, deriveAccount } from './accounts.js';
import { datedLifeBlock } from './dated-life.js';
import {
  applyHeldDeposit,
  type HeldDepositStep,
  heldDepositAction,
  heldDepositEvents,
  isHeldDepositKind,
} from './held-deposits.js';
import {
  applyNetworkLock,
  isNetworkLockKind,
  type NetworkLockStep,
  networkLockAction,
  networkLockEvents,
} from './network-lock.js';
import { rng } from './random.js';
import type { StakeState } from './stake-state.js';
import type { Staker, StakingAction, TaoMechanismKind } from './staking-action.js';
import { addSignedKinds } from './tao-fees.js';
import type { Timeline } from './timeline.js';
import type { WorldEvent } from './world-event.js';

export const TAO_MECHANISM_KINDS: readonly TaoMechanismKind[] = [
  'ProxyAdded',
  'ProxyRemoved',
  'NeuronRegistered',
  'EvmDeposit',
  'EvmWithdraw',
];
addSignedKinds(TAO_MECHANISM_KINDS);

/** UTC date and hour of each step: all in January 2026, on spec 343. */
export const TAO_MECHANISM_SCHEDULE: ReadonlyArray<[TaoMechanismKind, string, number]> = [
  ['ProxyAdded', '2026-01-06', 10],
  ['NeuronRegistered', '2026-01-09', 10],
  ['EvmDeposit', '2026-01-13', 10],
  ['EvmWithdraw', '2026-01-15', 10],
  ['ProxyRemoved', '2026-01-27', 10],
];

/** One proxy's deposit: `ProxyDepositBase` (deposit(1, 40)) + `ProxyDepositFactor` (deposit(0, 33)). */
export const PROXY_DEPOSIT_RAO = 20_000_000n + 40n * 1_000_000n + 33n * 1_000_000n;

/** The account that holds an EVM address's TAO: `HashedAddressMapping<BlakeTwo256>` of the address. */
export function evmMappedAccount(evmAddress: Uint8Array): Account {
  const publicKey = blake2AsU8a(u8aConcat(new TextEncoder().encode('evm:'), evmAddress), 256);
  return {
    label: `evm/${u8aToHex(evmAddress)}`,
    publicKey,
    hex: u8aToHex(publicKey),
    address: encodeAddress(publicKey, 42),
  };
}

/** A coldkey's own EVM address: the first 20 bytes of its public key (`EnsureAddressTruncated`). */
export function ownEvmAddress(coldkey: Account): Uint8Array {
  return coldkey.publicKey.slice(0, 20);
}

export interface TaoMechanismStep {
  block: number;
  kind: TaoMechanismKind;
}

/** The demo's steps that fall inside the world (a date before genesis has none). */
export function planTaoMechanisms(timeline: Timeline): TaoMechanismStep[] {
  const steps: TaoMechanismStep[] = [];
  for (const [kind, date, hour] of TAO_MECHANISM_SCHEDULE) {
    const block = datedLifeBlock(timeline, date, hour);
    if (block !== null) steps.push({ block, kind });
  }
  return steps;
}

export function isTaoMechanism(action: StakingAction): boolean {
  return (
    (TAO_MECHANISM_KINDS as readonly string[]).includes(action.kind) ||
    isNetworkLockKind(action.kind) ||
    isHeldDepositKind(action.kind)
  );
}

/**
 * The action of one step, sized from the state it meets: the proxy's delegate, the registered hotkey on a
 * subnet the coldkey stakes on (its `Burn` drawn from the step's own stream), a tenth of the free TAO sent to
 * the EVM address and all of it brought back.
 */
export function taoMechanismAction(
  seed: string,
  state: StakeState,
  demo: Staker,
  step: TaoMechanismStep,
): StakingAction {
  // The network lock and the held deposits are their own modules' steps (their steps carry what they need).
  if (isNetworkLockKind(step.kind)) return networkLockAction(seed, state, demo, step as NetworkLockStep);
  if (isHeldDepositKind(step.kind)) return heldDepositAction(seed, demo, step as HeldDepositStep);
  const base: StakingAction = {
    block: step.block,
    kind: step.kind,
    coldkey: demo.coldkey,
    hotkey: null,
    netuid: null,
    tao: 0n,
    alpha: null,
    fee: 0n,
    destColdkey: null,
    destHotkey: null,
    destNetuid: null,
  };
  const mapped = evmMappedAccount(ownEvmAddress(demo.coldkey));
  switch (step.kind) {
    case 'ProxyAdded':
    case 'ProxyRemoved':
      return { ...base, tao: PROXY_DEPOSIT_RAO, destColdkey: deriveAccount(seed, 'tao-mechanisms/proxy') };
    case 'NeuronRegistered': {
      const random = rng(seed, `tao-mechanisms/registration/${step.block}`);
      const netuid = demo.positions.find((p) => p.netuid !== 0)?.netuid ?? 1;
      return {
        ...base,
        hotkey: deriveAccount(seed, 'tao-mechanisms/registered-hotkey'),
        netuid,
        tao: random.bigint(RAO_PER_UNIT / 10n, (RAO_PER_UNIT * 5n) / 2n),
      };
    }
    case 'EvmDeposit':
      return { ...base, tao: state.free[demo.index]! / 10n, destColdkey: mapped };
    case 'EvmWithdraw':
      return { ...base, tao: state.evm?.[demo.index] ?? 0n, destColdkey: mapped };
  }
  throw new Error(`tao mechanisms: ${step.kind} is no step`);
}

/** What the step does to the free, reserved and EVM-held TAO. */
export function applyTaoMechanism(state: StakeState, action: StakingAction, index: number): void {
  if (isNetworkLockKind(action.kind)) {
    applyNetworkLock(state, action, index);
    return;
  }
  if (isHeldDepositKind(action.kind)) {
    applyHeldDeposit(state, action, index);
    return;
  }
  if (!state.reserved) state.reserved = state.free.map(() => 0n);
  if (!state.evm) state.evm = state.free.map(() => 0n);
  const { reserved, evm } = state;
  switch (action.kind) {
    case 'ProxyAdded':
      state.free[index]! -= action.tao;
      reserved[index]! += action.tao;
      return;
    case 'ProxyRemoved':
      reserved[index]! -= action.tao;
      state.free[index]! += action.tao;
      return;
    case 'NeuronRegistered':
      state.free[index]! -= action.tao;
      return;
    case 'EvmDeposit':
      state.free[index]! -= action.tao;
      evm[index]! += action.tao;
      return;
    case 'EvmWithdraw':
      evm[index]! -= action.tao;
      state.free[index]! += action.tao;
      return;
  }
}

/** The step's own events (its fee's are added around them, `tao-fees.ts`). */
export function taoMechanismEvents(action: StakingAction, uid: number): WorldEvent[] {
  if (isNetworkLockKind(action.kind)) return networkLockEvents(action);
  if (isHeldDepositKind(action.kind)) return heldDepositEvents(action);
  const who = action.coldkey.publicKey;
  const other = action.destColdkey?.publicKey;
  switch (action.kind) {
    case 'ProxyAdded':
    case 'ProxyRemoved':
      return [
        {
          pallet: 'Balances',
          name: action.kind === 'ProxyAdded' ? 'Reserved' : 'Unreserved',
          args: [who, action.tao],
        },
        { pallet: 'Proxy', name: action.kind, args: [who, other, 'Staking', 0] },
      ];
    case 'NeuronRegistered':
      return [
        { pallet: 'Balances', name: 'Withdraw', args: [who, action.tao] },
        {
          pallet: 'SubtensorModule',
          name: 'NeuronRegistered',
          args: [action.netuid, uid, action.hotkey?.publicKey],
        },
      ];
    case 'EvmDeposit':
      return [
        { pallet: 'System', name: 'NewAccount', args: [other] },
        { pallet: 'Balances', name: 'Endowed', args: [other, action.tao] },
        { pallet: 'Balances', name: 'Transfer', args: [who, other, action.tao] },
      ];
    case 'EvmWithdraw':
      return [
        { pallet: 'Balances', name: 'Transfer', args: [other, who, action.tao] },
        { pallet: 'System', name: 'KilledAccount', args: [other] },
      ];
  }
  return [];
}

/** The EVM-mapped accounts of coldkeys that hold TAO there at `state`: `System.Account` entries (hex → free). */
export function evmAccountsAt(stakers: readonly Staker[], state: StakeState): Array<[string, bigint]> {
  const held: Array<[string, bigint]> = [];
  for (const staker of stakers) {
    const tao = state.evm?.[staker.index] ?? 0n;
    if (tao > 0n) held.push([evmMappedAccount(ownEvmAddress(staker.coldkey)).hex, tao]);
  }
  return held;
}

/** A staker's reserved TAO at `state` (`System.Account`'s `data.reserved`). */
export function reservedOf(state: StakeState, staker: Staker | undefined): bigint {
  return staker ? (state.reserved?.[staker.index] ?? 0n) : 0n;
}
