/**
 * Two deposits the demo coldkey sets aside and gets back in tax year 2025/26, in a world placed by date:
 * - **an identity** in the `Registry` pallet (`pallets/registry/src/lib.rs`, `set_identity`/`clear_identity`,
 *   and `runtime/src/lib.rs`'s `InitialDeposit` of 0.1 TAO and `AllowIdentityReg`, at 81ee047fd, 9 September
 *   2025, and unchanged at f86204dc4): a coldkey may register its own identity only while it owns a subnet
 *   (`is_subnet_owner`), so the demo sets it on 10 September 2025, while its network of `network-lock.ts`
 *   stands, and clears it on 5 November 2025, before that network is dissolved. The deposit is a *hold*
 *   (`Currency::hold`, `HoldReason::RegistryIdentity`), which `System.Account` counts in `data.reserved`; the
 *   runtime's balances pallet (polkadot-sdk stable2503) emits no event for a hold or its release, so only
 *   `Registry.IdentitySet { who }` and `Registry.IdentityDissolved { who }` mark them, with no amount.
 *   (`SubtensorModule.set_identity`, the chain identity, takes no deposit.)
 * - **a multisig call** (`pallet_multisig` of polkadot-sdk stable2503; `DepositBase = deposit(1, 112)`,
 *   `DepositFactor = deposit(0, 32)` in `runtime/src/lib.rs` at 835a2c902, the source of mainnet's specs 320 to
 *   325, and unchanged at f86204dc4): on 14 October 2025 the demo opens a two-of-two multisig call with
 *   `as_multi` (`Balances.Reserved { who, DepositBase + 2 × DepositFactor }`, then `Multisig.NewMultisig
 *   { approving, multisig, call_hash }`); on 16 October its co-signer's approval executes it and returns the
 *   deposit to the demo in the co-signer's extrinsic (`Balances.Unreserved`, then `Multisig.MultisigExecuted`). The call is a `System.remark`, which emits nothing.
 * The demo's identity and `as_multi` calls are its own, so each pays its transaction fee (`tao-fees.ts`); the
 * execution is the co-signer's call and its fee.
 */
import { compactToU8a, u8aConcat } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import { type Account, deriveAccount } from './accounts.js';
import { datedLifeBlock } from './dated-life.js';
import type { StakeState } from './stake-state.js';
import type { Staker, StakingAction } from './staking-action.js';
import { addSignedKinds } from './tao-fees.js';
import type { Timeline } from './timeline.js';
import type { WorldEvent } from './world-event.js';

export type HeldDepositKind = 'IdentitySet' | 'IdentityDissolved' | 'NewMultisig' | 'MultisigExecuted';

export const HELD_DEPOSIT_KINDS: readonly HeldDepositKind[] = [
  'IdentitySet',
  'IdentityDissolved',
  'NewMultisig',
  'MultisigExecuted',
];
addSignedKinds(['IdentitySet', 'IdentityDissolved', 'NewMultisig']);

/** UTC date and hour of each step (the identity while the demo owns its network: 3 September to 12 November). */
export const HELD_DEPOSIT_SCHEDULE: ReadonlyArray<[HeldDepositKind, string, number]> = [
  ['IdentitySet', '2025-09-10', 10],
  ['IdentityDissolved', '2025-11-05', 10],
  ['NewMultisig', '2025-10-14', 10],
  ['MultisigExecuted', '2025-10-16', 10],
];

/** `deposit(items, bytes)` of `runtime/src/lib.rs`: 20,000,000 rao an item, 1,000,000 a byte. */
const deposit = (items: bigint, bytes: bigint) => items * 20_000_000n + bytes * 1_000_000n;
/** `InitialDeposit` of the registry (no additional field, so no `FieldDeposit`). */
export const IDENTITY_DEPOSIT_RAO = 100_000_000n;
/** A two-of-two multisig call's deposit: `DepositBase + DepositFactor × threshold`. */
export const MULTISIG_THRESHOLD = 2;
export const MULTISIG_DEPOSIT_RAO = deposit(1n, 112n) + deposit(0n, 32n) * BigInt(MULTISIG_THRESHOLD);

export interface HeldDepositStep {
  block: number;
  kind: HeldDepositKind;
  /** A multisig step: the block of the `as_multi` that opened the call (its timepoint). */
  opened?: number;
}

/**
 * The steps inside the world. The identity needs the demo's network (`hasNetwork`): without it (a world that
 * does not hold both its dates) the demo could not register one, and neither identity step happens.
 */
export function planHeldDeposits(timeline: Timeline, hasNetwork: boolean): HeldDepositStep[] {
  const steps: HeldDepositStep[] = [];
  const blocks = HELD_DEPOSIT_SCHEDULE.map(([kind, date, hour]) => ({
    kind,
    block: datedLifeBlock(timeline, date, hour),
  }));
  const pair = (a: number, b: number) => {
    const [open, close] = [blocks[a]!, blocks[b]!];
    // A deposit is modelled whole or not at all: one returned in the world was set aside in it.
    if (open.block === null) return;
    const opened = open.kind === 'NewMultisig' ? { opened: open.block } : {};
    steps.push({ kind: open.kind, block: open.block, ...opened });
    if (close.block !== null) steps.push({ kind: close.kind, block: close.block, ...opened });
  };
  if (hasNetwork) pair(0, 1);
  pair(2, 3);
  return steps;
}

export function isHeldDepositKind(kind: string): kind is HeldDepositKind {
  return (HELD_DEPOSIT_KINDS as readonly string[]).includes(kind);
}

/** The multisig's co-signer, and the multisig account of the two (`multi_account_id`). */
export function multisigParties(seed: string, demo: Account): { cosigner: Account; multisig: Uint8Array } {
  const cosigner = deriveAccount(seed, 'held-deposits/multisig-cosigner');
  const signatories = [demo.publicKey, cosigner.publicKey].sort((a, b) => Buffer.compare(a, b));
  const threshold = new Uint8Array([MULTISIG_THRESHOLD, 0]);
  const entropy = u8aConcat(
    new TextEncoder().encode('modlpy/utilisuba'),
    compactToU8a(signatories.length),
    ...signatories,
    threshold,
  );
  return { cosigner, multisig: blake2AsU8a(entropy, 256) };
}

/** The multisig's call, a `System.remark` (pallet 0, call 0), and its hash. */
function callHash(seed: string): Uint8Array {
  const remark = new TextEncoder().encode(`${seed}/held-deposits/remark`);
  return blake2AsU8a(u8aConcat(new Uint8Array([0, 0]), compactToU8a(remark.length), remark), 256);
}

/**
 * The action of a step. A multisig step carries the multisig account, its call's hash and the timepoint of the
 * `as_multi` that opened it (its block; the extrinsic index is taken as 1, the first after the timestamp).
 */
export function heldDepositAction(seed: string, demo: Staker, step: HeldDepositStep): StakingAction {
  const identity = step.kind === 'IdentitySet' || step.kind === 'IdentityDissolved';
  const base: StakingAction = {
    block: step.block,
    kind: step.kind,
    coldkey: demo.coldkey,
    hotkey: null,
    netuid: null,
    tao: identity ? IDENTITY_DEPOSIT_RAO : MULTISIG_DEPOSIT_RAO,
    alpha: null,
    fee: 0n,
    destColdkey: null,
    destHotkey: null,
    destNetuid: null,
    // A step of the 2025/26 life: the truth lists it among its actions.
    dated: true,
  };
  if (identity) return base;
  const { cosigner, multisig } = multisigParties(seed, demo.coldkey);
  const opened = step.opened ?? step.block;
  return {
    ...base,
    destColdkey: cosigner,
    multisig: { account: multisig, callHash: callHash(seed), timepoint: { height: opened, index: 1 } },
  };
}

/** Setting a deposit aside moves it from the free TAO to the reserved; returning it moves it back. */
export function applyHeldDeposit(state: StakeState, action: StakingAction, index: number): void {
  if (!state.reserved) state.reserved = state.free.map(() => 0n);
  const held = action.kind === 'IdentitySet' || action.kind === 'NewMultisig';
  state.free[index]! += held ? -action.tao : action.tao;
  state.reserved[index]! += held ? action.tao : -action.tao;
}

/** The step's own events (a signed step's fee is added around them, `tao-fees.ts`). */
export function heldDepositEvents(action: StakingAction): WorldEvent[] {
  const who = action.coldkey.publicKey;
  const multisig = action.multisig;
  if (action.kind === 'IdentitySet' || action.kind === 'IdentityDissolved')
    return [{ pallet: 'Registry', name: action.kind, args: [who] }];
  if (!multisig) return [];
  if (action.kind === 'NewMultisig') {
    return [
      { pallet: 'Balances', name: 'Reserved', args: [who, action.tao] },
      { pallet: 'Multisig', name: 'NewMultisig', args: [who, multisig.account, multisig.callHash] },
    ];
  }
  return [
    { pallet: 'Balances', name: 'Unreserved', args: [who, action.tao] },
    {
      pallet: 'Multisig',
      name: 'MultisigExecuted',
      args: [
        action.destColdkey?.publicKey,
        multisig.timepoint,
        multisig.account,
        multisig.callHash,
        { Ok: null },
      ],
    },
  ];
}
