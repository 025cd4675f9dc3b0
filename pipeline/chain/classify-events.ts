/**
 * Burns and staking events out of one block's decoded events.
 *
 * Burn classification (per extrinsic, matched by event name, never by index):
 *   - buyback: `add_stake_burn` emits StakeAdded, AlphaBurned and AddStakeBurn in one extrinsic. The
 *     triple is one burn: its AlphaBurned's event index and alpha amount, the TAO spent from AddStakeBurn,
 *     the coldkey from the StakeAdded. (The StakeAdded is also recorded as a staking event.)
 *   - burn: any other AlphaBurned (`burn_alpha`).
 *   - recycle: AlphaRecycled (`recycle_alpha`): stored, but not a burn in any published total.
 *
 * Staking events (every event that changes what a coldkey holds, for the tax side), by name through the
 * block's own metadata, in the shapes of opentensor/subtensor `pallets/subtensor/src/macros/events.rs`
 * (spec 425) and `pallets/limit-orders/src/lib.rs`, each with its phase (`extrinsicIndex`): the events of one
 * extrinsic belong to one economic action. A `Balances.Transfer` from a subnet's account in a block whose
 * `NetworkRemoved` removed that subnet is marked `dissolved_netuid` (the subnet's TAO paid to a holder), and
 * so is the `Balances.Deposit` that pays a holder the same way before spec 425 (`creditedPayoutOf`). A signed
 * call's `TransactionPayment.TransactionFeePaid` that paid something is kept too: the fee left its signer's
 * free TAO (`pallet_transaction_payment`).
 */

import type { BurnEvent } from './burn-event.js';
import { crowdloanOfAccount } from './crowdloan-account.js';
import { fieldAccount, fieldCount, fieldInt, fieldRao, fieldSubnetAccount } from './event-fields.js';
import { liquidityEvent, liquidityRefundOf } from './liquidity-events.js';
import type { BlockEvents } from './read-blocks.js';
import type { DecodedEvent } from './runtime-codec.js';
import type { StakingEvent } from './staking-event.js';
import { subnetAccount } from './subnet-account.js';

const SUBTENSOR = 'SubtensorModule';

export function classifyBlock(block: BlockEvents): { burns: BurnEvent[]; staking: StakingEvent[] } {
  const burns: BurnEvent[] = [];
  const staking: StakingEvent[] = [];
  const base = (event: DecodedEvent) => ({
    block: block.number,
    eventIndex: event.index,
    extrinsicIndex: event.extrinsicIndex,
    blockTime: block.timeMs,
  });

  // One pass finds the buybacks and the subnets dissolved in this block (their accounts' transfers are
  // payouts to holders); most blocks have neither.
  const buybacks: DecodedEvent[] = [];
  const dissolved = new Set<number>();
  const removals: DecodedEvent[] = [];
  for (const event of block.events) {
    if (event.pallet !== SUBTENSOR) continue;
    if (event.name === 'AddStakeBurn') buybacks.push(event);
    else if (event.name === 'NetworkRemoved') {
      dissolved.add(fieldInt(event, 0));
      removals.push(event);
    }
  }
  const creditedPayout = removals.length === 0 ? () => null : creditedPayoutOf(block.events, removals);
  const liquidityRefund = liquidityRefundOf(block.events);

  // AlphaBurned and StakeAdded events consumed by a buyback, by event index.
  const consumed = new Set<number>();
  for (const event of buybacks) {
    // { netuid, hotkey, tao, alpha }
    const netuid = fieldInt(event, 0);
    const hotkey = fieldAccount(event, 1);
    const sameExtrinsic = (e: DecodedEvent) =>
      e.index < event.index && e.extrinsicIndex === event.extrinsicIndex && !consumed.has(e.index);
    // The nearest earlier AlphaBurned and StakeAdded of the same extrinsic, subnet and hotkey.
    const burned = findLast(
      block.events,
      (e) =>
        sameExtrinsic(e) &&
        e.pallet === SUBTENSOR &&
        e.name === 'AlphaBurned' &&
        fieldInt(e, 3) === netuid &&
        fieldAccount(e, 1) === hotkey,
    );
    const staked = findLast(
      block.events,
      (e) =>
        sameExtrinsic(e) &&
        e.pallet === SUBTENSOR &&
        e.name === 'StakeAdded' &&
        fieldInt(e, 4) === netuid &&
        fieldAccount(e, 1) === hotkey,
    );
    if (burned) consumed.add(burned.index);
    if (staked) consumed.add(staked.index);
    burns.push({
      ...base(burned ?? event),
      netuid,
      kind: 'buyback',
      coldkey: staked ? fieldAccount(staked, 0) : burned ? fieldAccount(burned, 0) : null,
      hotkey,
      alphaRao: burned ? fieldRao(burned, 2) : fieldRao(event, 3),
      taoRao: fieldRao(event, 2),
    });
  }

  for (const event of block.events) {
    // Fields are read only of the events kept (event-scanner.ts): most of a mainnet block's events never are.
    if (event.name === 'OrderExecuted' && event.pallet !== SUBTENSOR && event.pallet !== 'Balances') {
      // (order_id, signer, netuid, order_type, amount_in, amount_out): a limit order executed for the signer.
      const f = event.fields;
      const buy = String(f[3]?.toString()) === 'LimitBuy';
      staking.push({
        ...base(event),
        kind: 'LimitOrderExecuted',
        coldkey: fieldAccount(event, 1),
        hotkey: null,
        netuid: fieldInt(event, 2),
        taoRao: fieldRao(event, buy ? 4 : 5),
        alphaRao: fieldRao(event, buy ? 5 : 4),
        detail: { order_id: String(f[0]?.toString()), order_type: String(f[3]?.toString()) },
      });
      continue;
    }
    if (event.pallet === 'Swap' || event.pallet === 'Crowdloan') {
      // User liquidity positions and crowdloan contributions (liquidity-events.ts).
      const found = liquidityEvent(event);
      if (found) staking.push({ ...base(event), ...found });
      continue;
    }
    if (event.pallet === SUBTENSOR) {
      switch (event.name) {
        case 'HotkeySwapped':
        case 'HotkeySwappedOnSubnet':
          // { coldkey, old_hotkey, new_hotkey (, netuid) }: the hotkey's stake (its nominators' too) moves.
          staking.push({
            ...base(event),
            kind: event.name,
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 1),
            netuid: event.name === 'HotkeySwappedOnSubnet' ? fieldInt(event, 3) : null,
            taoRao: null,
            alphaRao: null,
            detail: { new_hotkey: fieldAccount(event, 2) },
          });
          break;
        case 'ColdkeySwapped':
          // { old_coldkey, new_coldkey }: everything of the old coldkey now belongs to the new one.
          staking.push({
            ...base(event),
            kind: 'ColdkeySwapped',
            coldkey: fieldAccount(event, 0),
            hotkey: null,
            netuid: null,
            taoRao: null,
            alphaRao: null,
            detail: { new_coldkey: fieldAccount(event, 1) },
          });
          break;
        case 'AutoStakeAdded':
          // { netuid, destination (hotkey staked to), hotkey (the miner's), owner (coldkey), incentive }
          staking.push({
            ...base(event),
            kind: 'AutoStakeAdded',
            coldkey: fieldAccount(event, 3),
            hotkey: fieldAccount(event, 1),
            netuid: fieldInt(event, 0),
            taoRao: null,
            alphaRao: fieldRao(event, 4),
            detail: { miner_hotkey: fieldAccount(event, 2) },
          });
          break;
        case 'RootClaimed':
          // { coldkey }: root dividends claimed, as alpha onto the coldkey's positions.
          staking.push({
            ...base(event),
            kind: 'RootClaimed',
            coldkey: fieldAccount(event, 0),
            hotkey: null,
            netuid: null,
            taoRao: null,
            alphaRao: null,
            detail: null,
          });
          break;
        case 'SubnetLeaseDividendsDistributed':
          // { lease_id, contributor, alpha }
          staking.push({
            ...base(event),
            kind: 'SubnetLeaseDividendsDistributed',
            coldkey: fieldAccount(event, 1),
            hotkey: null,
            netuid: null,
            taoRao: null,
            alphaRao: fieldRao(event, 2),
            detail: { lease_id: String(event.fields[0]?.toString()) },
          });
          break;
        case 'TransactionFeePaidWithAlpha':
          // { who, netuid, alpha_fee, tao_amount }
          staking.push({
            ...base(event),
            kind: 'TransactionFeePaidWithAlpha',
            coldkey: fieldAccount(event, 0),
            hotkey: null,
            netuid: fieldInt(event, 1),
            taoRao: fieldRao(event, 3),
            alphaRao: fieldRao(event, 2),
            detail: null,
          });
          break;
        case 'NeuronRegistered': {
          // (netuid, uid, hotkey): names no coldkey. `burned_register` is signed by the coldkey, whose fee
          // (`TransactionFeePaid`) names it; the burn is its `Balances.Withdraw` in the extrinsic after the
          // fee's own (`subnets/registration.rs`, `remove_balance_from_coldkey_account`).
          const paid = registrationBurnOf(block.events, event);
          if (paid === null) break;
          staking.push({
            ...base(event),
            kind: 'NeuronRegistered',
            coldkey: paid.signer,
            hotkey: fieldAccount(event, 2),
            netuid: fieldInt(event, 0),
            taoRao: paid.burn,
            alphaRao: null,
            detail: { uid: fieldInt(event, 1) },
          });
          break;
        }
        case 'NetworkAdded': {
          // (netuid, mechanism): names no coldkey. `register_network` is signed by the coldkey that becomes the
          // subnet's owner, whose fee names it; the lock is its `Balances.Withdraw` after the fee's own
          // (`subnets/subnet.rs`, `do_register_network`). A registration no signed call paid for (the chain's
          // own, or a test's) is not kept.
          const locked = registrationBurnOf(block.events, event);
          if (locked === null) break;
          staking.push({
            ...base(event),
            kind: 'NetworkRegistered',
            coldkey: locked.signer,
            hotkey: null,
            netuid: fieldInt(event, 0),
            taoRao: locked.burn,
            alphaRao: null,
            detail: null,
          });
          break;
        }
        case 'AlphaBurned':
        case 'AlphaRecycled':
          // Kept in `burns` (the tax side reads a holder's recycles and burns from there).
          if (event.name === 'AlphaBurned' && consumed.has(event.index)) break;
          burns.push({
            ...base(event),
            netuid: fieldInt(event, 3),
            kind: event.name === 'AlphaBurned' ? 'burn' : 'recycle',
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 1),
            alphaRao: fieldRao(event, 2),
            taoRao: null,
          });
          break;
        case 'StakeAdded':
        case 'StakeRemoved':
          // (coldkey, hotkey, tao, alpha, netuid, fee); before spec 257 the runtime reports no fee (five
          // fields, the tao net of it), so the event carries none.
          staking.push({
            ...base(event),
            kind: event.name,
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 1),
            netuid: fieldInt(event, 4),
            taoRao: fieldRao(event, 2),
            alphaRao: fieldRao(event, 3),
            detail: fieldCount(event) >= 6 ? { fee_rao: fieldRao(event, 5).toString() } : null,
          });
          break;
        case 'StakeMoved':
          // (coldkey, origin hotkey, origin netuid, destination hotkey, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeMoved',
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 1),
            netuid: fieldInt(event, 2),
            taoRao: fieldRao(event, 5),
            alphaRao: null,
            detail: { destination_hotkey: fieldAccount(event, 3), destination_netuid: fieldInt(event, 4) },
          });
          break;
        case 'StakeTransferred':
          // (origin coldkey, destination coldkey, hotkey, origin netuid, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeTransferred',
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 2),
            netuid: fieldInt(event, 3),
            taoRao: fieldRao(event, 5),
            alphaRao: null,
            detail: { destination_coldkey: fieldAccount(event, 1), destination_netuid: fieldInt(event, 4) },
          });
          break;
        case 'StakeSwapped':
          // (coldkey, hotkey, origin netuid, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeSwapped',
            coldkey: fieldAccount(event, 0),
            hotkey: fieldAccount(event, 1),
            netuid: fieldInt(event, 2),
            taoRao: fieldRao(event, 4),
            alphaRao: null,
            detail: { destination_netuid: fieldInt(event, 3) },
          });
          break;
      }
    } else if (event.pallet === 'TransactionPayment' && event.name === 'TransactionFeePaid') {
      // { who, actual_fee, tip }: the fee (tip included) a signed call paid from `who`'s free TAO; a call that
      // paid nothing (weights, mandatory calls) is not kept.
      const fee = fieldRao(event, 1);
      if (fee === 0n) continue;
      staking.push({
        ...base(event),
        kind: 'TransactionFeePaid',
        coldkey: fieldAccount(event, 0),
        hotkey: null,
        netuid: null,
        taoRao: fee,
        alphaRao: null,
        detail: { tip_rao: fieldRao(event, 2).toString() },
      });
    } else if (event.pallet === 'Balances' && (event.name === 'Reserved' || event.name === 'Unreserved')) {
      // { who, amount }: TAO set aside as a deposit (`Currency::reserve`: a proxy, an identity, a multisig) or
      // returned to the free balance; still the holder's either way.
      staking.push({
        ...base(event),
        kind: event.name,
        coldkey: fieldAccount(event, 0),
        hotkey: null,
        netuid: null,
        taoRao: fieldRao(event, 1),
        alphaRao: null,
        detail: null,
      });
    } else if (event.pallet === 'Balances' && event.name === 'Transfer') {
      const from = fieldAccount(event, 0);
      const to = fieldAccount(event, 1);
      const fromSubnet = fieldSubnetAccount(event, 0);
      const toSubnet = fieldSubnetAccount(event, 1);
      const detail: Record<string, string | number> = { to };
      // A subnet's account on either side: the TAO leg of a stake or unstake (or a dissolution's payout).
      if (fromSubnet !== null) detail['from_subnet'] = fromSubnet;
      if (toSubnet !== null) detail['to_subnet'] = toSubnet;
      if (fromSubnet !== null && dissolved.has(fromSubnet)) detail['dissolved_netuid'] = fromSubnet;
      // A crowdloan's funds account on either side: a contribution's TAO leg, or a refund or withdrawal.
      const fromCrowdloan = crowdloanOfAccount(from);
      const toCrowdloan = crowdloanOfAccount(to);
      if (fromCrowdloan !== null) detail['from_crowdloan'] = fromCrowdloan;
      if (toCrowdloan !== null) detail['to_crowdloan'] = toCrowdloan;
      staking.push({
        ...base(event),
        kind: 'Transfer',
        coldkey: from,
        hotkey: null,
        netuid: null,
        taoRao: fieldRao(event, 2),
        alphaRao: null,
        detail,
      });
    } else if (event.pallet === 'Balances' && event.name === 'Deposit') {
      const refunded = liquidityRefund(event);
      if (refunded !== null) {
        staking.push({
          ...base(event),
          kind: 'LiquidityRefunded',
          coldkey: fieldAccount(event, 0),
          hotkey: null,
          netuid: refunded,
          taoRao: fieldRao(event, 1),
          alphaRao: null,
          detail: null,
        });
        continue;
      }
      const netuid = creditedPayout(event);
      if (netuid === null) continue;
      // Recorded as the transfer from the subnet's account that later runtimes make of the same payout.
      staking.push({
        ...base(event),
        kind: 'Transfer',
        coldkey: subnetAccount(netuid),
        hotkey: null,
        netuid: null,
        taoRao: fieldRao(event, 1),
        alphaRao: null,
        detail: { to: fieldAccount(event, 0), from_subnet: netuid, dissolved_netuid: netuid },
      });
    }
  }
  burns.sort((a, b) => a.eventIndex - b.eventIndex);
  return { burns, staking };
}

/**
 * Before spec 425 a dissolution credits each holder's share to its free balance, a `Balances.Deposit { who,
 * amount }` in the dissolving extrinsic before its `NetworkRemoved` (opentensor/subtensor
 * `pallets/subtensor/src/staking/remove_stake.rs`, `destroy_alpha_in_out_stakes`, at spec 343), where later
 * runtimes transfer it from the subnet's account. The netuid such a deposit pays out of, or null: a deposit
 * after the removal (the fee refund) or in an extrinsic whose payouts are transfers is not one. The owner's
 * lock refund of a legacy subnet is credited the same way and cannot be told apart by its event.
 */
function creditedPayoutOf(
  events: readonly DecodedEvent[],
  removals: readonly DecodedEvent[],
): (deposit: DecodedEvent) => number | null {
  const transfersOut = new Set<string>();
  for (const e of events) {
    if (e.pallet !== 'Balances' || e.name !== 'Transfer') continue;
    const from = fieldSubnetAccount(e, 0);
    if (from !== null) transfersOut.add(`${e.extrinsicIndex}:${from}`);
  }
  return (deposit) => {
    const removal = removals.find(
      (r) => r.extrinsicIndex === deposit.extrinsicIndex && r.index > deposit.index,
    );
    if (removal === undefined) return null;
    const netuid = fieldInt(removal, 0);
    return transfersOut.has(`${removal.extrinsicIndex}:${netuid}`) ? null : netuid;
  };
}

/**
 * The signer of a registration's extrinsic (its `TransactionFeePaid`'s `who`) and the TAO its registration
 * burned: that signer's `Balances.Withdraw` events in the extrinsic, less the first when it withdrew the fee
 * (withdrawn before the call runs). Null when the extrinsic names no signer or burned nothing (a proof-of-work
 * registration, a root registration).
 */
function registrationBurnOf(
  events: readonly DecodedEvent[],
  registered: DecodedEvent,
): { signer: string; burn: bigint } | null {
  if (registered.extrinsicIndex === null) return null;
  const own = events.filter((e) => e.extrinsicIndex === registered.extrinsicIndex);
  const paid = own.find((e) => e.pallet === 'TransactionPayment' && e.name === 'TransactionFeePaid');
  if (!paid) return null;
  const signer = fieldAccount(paid, 0);
  const withdrawn = own.filter(
    (e) =>
      e.pallet === 'Balances' &&
      e.name === 'Withdraw' &&
      e.index < registered.index &&
      fieldAccount(e, 0) === signer,
  );
  const burns = fieldRao(paid, 1) > 0n ? withdrawn.slice(1) : withdrawn;
  const burn = burns.reduce((sum, e) => sum + fieldRao(e, 1), 0n);
  return burn > 0n ? { signer, burn } : null;
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (test(item)) return item;
  }
  return undefined;
}
