/**
 * Transaction fees of the tracked coldkeys' own signed calls, in a world placed by date. Every signed call pays
 * its fee from the signer's free TAO before it runs (`pallet_transaction_payment`'s `withdraw_fee` through
 * the runtime's `OnChargeTransaction`): `Balances.Withdraw { who, amount }` first in the extrinsic, then the
 * call's own events, then `TransactionPayment.TransactionFeePaid { who, actual_fee, tip }`. What became of
 * the fee changed on mainnet (opentensor/subtensor):
 * - until spec 385 it was burned: `TransactionFeeHandler::on_nonzero_unbalanced` drops the credit and lowers
 *   `TotalIssuance` (`runtime/src/lib.rs` at commit 423b3ce8e, spec 274; then `pallets/transaction-fee`), with
 *   no event beyond the withdrawal;
 * - from spec 385 (merge 7eb6f9bb7, 11 March 2026, of commit 2208d29d8 "forward tx fees to block author") it
 *   is paid to the block's author, a `Balances.Deposit` to it before `TransactionFeePaid`.
 * A fee is `(call weight + ExtrinsicBaseWeight) × coefficient + length` (`LengthToFee` is `IdentityFee`: a rao
 * a byte); `LinearWeightToFee`'s coefficient was 500,000 parts per billion (spec 274), 50,000 from spec 301
 * (merge 312c0be95, 12 August 2025) and 500,000 again from 385. The sandbox's eras group 301 into 297's and 385
 * into 393's: here the coefficient is 50,000 from 315's era and 500,000 with the author's deposit from 393's
 * (25 March 2026). Calls of the tracked coldkeys only:
 * the filler traffic's signers pay their own in `mainnet-traffic.ts`; epoch payouts, `on_idle` work and calls
 * a relayer or a subnet owner signs pay nothing of theirs. A fee paid in alpha (spec 425's
 * `TransactionFeePaidWithAlpha`) takes no TAO.
 */
import { rng } from './random.js';
import type { StakingAction } from './staking-action.js';
import type { WorldEvent } from './world-event.js';

/** Actions that are one call signed by the tracked coldkey that made them (`kind` as `StakingAction`'s). */
const SIGNED_KINDS = new Set<string>([
  'StakeAdded',
  'StakeRemoved',
  'StakeMoved',
  'StakeSwapped',
  'StakeTransferred',
  'Transfer',
  'AlphaRecycled',
  'RootClaimed',
]);

/** More signed kinds (the TAO mechanisms' calls), registered by the modules that add them. */
export function addSignedKinds(kinds: readonly string[]): void {
  for (const kind of kinds) SIGNED_KINDS.add(kind);
}

/** Whether `action` is a call its tracked coldkey signed and paid a TAO fee for. */
export function paysTaoFee(action: StakingAction): boolean {
  return SIGNED_KINDS.has(action.kind) && action.alphaFee === undefined;
}

/** `ExtrinsicBaseWeight`'s ref time (frame's default weights), added to every call's own weight. */
const BASE_REF_TIME = 125_000_000n;

/**
 * The fee of one signed call at a runtime of spec `spec`, in rao: its weight (drawn from the call's own
 * stream, about what mainnet's weights give a staking call) and length priced as the runtime priced them.
 */
export function taoFeeOf(seed: string, action: StakingAction, spec: number): bigint {
  const random = rng(seed, `tx-fee/${action.block}/${action.coldkey.hex}/${action.kind}`);
  const refTime = BigInt(random.int(150_000_000, 450_000_000));
  const length = BigInt(random.int(110, 240));
  const perBillion = spec >= 393 ? 500_000n : spec >= 315 ? 50_000n : 500_000n;
  return ((refTime + BASE_REF_TIME) * perBillion) / 1_000_000_000n + length;
}

/**
 * The fee's events around the call's own: the withdrawal before, the author's deposit (spec 385 on) and
 * `TransactionFeePaid` after. None for an action that paid no TAO fee.
 */
export function taoFeeEvents(
  action: StakingAction,
  author: Uint8Array,
  toAuthor: boolean,
): { before: WorldEvent[]; after: WorldEvent[] } {
  const fee = action.taoFee ?? 0n;
  if (fee === 0n) return { before: [], after: [] };
  const who = action.coldkey.publicKey;
  return {
    before: [{ pallet: 'Balances', name: 'Withdraw', args: [who, fee] }],
    after: [
      ...(toAuthor ? [{ pallet: 'Balances', name: 'Deposit', args: [author, fee] }] : []),
      { pallet: 'TransactionPayment', name: 'TransactionFeePaid', args: [who, fee, 0n] },
    ],
  };
}
