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
 * `NetworkRemoved` removed that subnet is marked `dissolved_netuid` (the subnet's TAO paid to a holder).
 */

import type { Codec } from '@polkadot/types/types';
import type { BurnEvent } from './burn-event.js';
import { account, rao, smallInt } from './codec-values.js';
import type { BlockEvents } from './read-blocks.js';
import type { DecodedEvent } from './runtime-codec.js';
import type { StakingEvent } from './staking-event.js';
import { subnetOfAccount } from './subnet-account.js';

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

  // AlphaBurned and StakeAdded events consumed by a buyback, by event index.
  const consumed = new Set<number>();
  for (const event of block.events) {
    if (event.pallet !== SUBTENSOR || event.name !== 'AddStakeBurn') continue;
    const [netuidField, hotkeyField, taoField, alphaField] = event.fields;
    const netuid = smallInt(netuidField);
    const hotkey = account(hotkeyField);
    const sameExtrinsic = (e: DecodedEvent) =>
      e.index < event.index && e.extrinsicIndex === event.extrinsicIndex && !consumed.has(e.index);
    // The nearest earlier AlphaBurned and StakeAdded of the same extrinsic, subnet and hotkey.
    const burned = findLast(
      block.events,
      (e) =>
        sameExtrinsic(e) &&
        e.pallet === SUBTENSOR &&
        e.name === 'AlphaBurned' &&
        smallInt(e.fields[3]) === netuid &&
        account(e.fields[1]) === hotkey,
    );
    const staked = findLast(
      block.events,
      (e) =>
        sameExtrinsic(e) &&
        e.pallet === SUBTENSOR &&
        e.name === 'StakeAdded' &&
        smallInt(e.fields[4]) === netuid &&
        account(e.fields[1]) === hotkey,
    );
    if (burned) consumed.add(burned.index);
    if (staked) consumed.add(staked.index);
    burns.push({
      ...base(burned ?? event),
      netuid,
      kind: 'buyback',
      coldkey: staked ? account(staked.fields[0]) : burned ? account(burned.fields[0]) : null,
      hotkey,
      alphaRao: burned ? rao(burned.fields[2]) : rao(alphaField),
      taoRao: rao(taoField),
    });
  }

  // Subnets dissolved in this block: their accounts' transfers are payouts to holders.
  const dissolved = new Set<number>();
  for (const event of block.events) {
    if (event.pallet === SUBTENSOR && event.name === 'NetworkRemoved')
      dissolved.add(smallInt(event.fields[0]));
  }

  for (const event of block.events) {
    // Fields are decoded when first read (event-scanner.ts): most of a mainnet block's events are never read.
    const f = lazyFields(event);
    if (event.name === 'OrderExecuted' && event.pallet !== SUBTENSOR && event.pallet !== 'Balances') {
      // (order_id, signer, netuid, order_type, amount_in, amount_out): a limit order executed for the signer.
      const buy = String(f[3]?.toString()) === 'LimitBuy';
      staking.push({
        ...base(event),
        kind: 'LimitOrderExecuted',
        coldkey: account(f[1]),
        hotkey: null,
        netuid: smallInt(f[2]),
        taoRao: rao(buy ? f[4] : f[5]),
        alphaRao: rao(buy ? f[5] : f[4]),
        detail: { order_id: String(f[0]?.toString()), order_type: String(f[3]?.toString()) },
      });
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
            coldkey: account(f[0]),
            hotkey: account(f[1]),
            netuid: event.name === 'HotkeySwappedOnSubnet' ? smallInt(f[3]) : null,
            taoRao: null,
            alphaRao: null,
            detail: { new_hotkey: account(f[2]) },
          });
          break;
        case 'ColdkeySwapped':
          // { old_coldkey, new_coldkey }: everything of the old coldkey now belongs to the new one.
          staking.push({
            ...base(event),
            kind: 'ColdkeySwapped',
            coldkey: account(f[0]),
            hotkey: null,
            netuid: null,
            taoRao: null,
            alphaRao: null,
            detail: { new_coldkey: account(f[1]) },
          });
          break;
        case 'AutoStakeAdded':
          // { netuid, destination (hotkey staked to), hotkey (the miner's), owner (coldkey), incentive }
          staking.push({
            ...base(event),
            kind: 'AutoStakeAdded',
            coldkey: account(f[3]),
            hotkey: account(f[1]),
            netuid: smallInt(f[0]),
            taoRao: null,
            alphaRao: rao(f[4]),
            detail: { miner_hotkey: account(f[2]) },
          });
          break;
        case 'RootClaimed':
          // { coldkey }: root dividends claimed, as alpha onto the coldkey's positions.
          staking.push({
            ...base(event),
            kind: 'RootClaimed',
            coldkey: account(f[0]),
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
            coldkey: account(f[1]),
            hotkey: null,
            netuid: null,
            taoRao: null,
            alphaRao: rao(f[2]),
            detail: { lease_id: String(f[0]?.toString()) },
          });
          break;
        case 'TransactionFeePaidWithAlpha':
          // { who, netuid, alpha_fee, tao_amount }
          staking.push({
            ...base(event),
            kind: 'TransactionFeePaidWithAlpha',
            coldkey: account(f[0]),
            hotkey: null,
            netuid: smallInt(f[1]),
            taoRao: rao(f[3]),
            alphaRao: rao(f[2]),
            detail: null,
          });
          break;
        case 'AlphaBurned':
        case 'AlphaRecycled':
          // Kept in `burns` (the tax side reads a holder's recycles and burns from there).
          if (event.name === 'AlphaBurned' && consumed.has(event.index)) break;
          burns.push({
            ...base(event),
            netuid: smallInt(f[3]),
            kind: event.name === 'AlphaBurned' ? 'burn' : 'recycle',
            coldkey: account(f[0]),
            hotkey: account(f[1]),
            alphaRao: rao(f[2]),
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
            coldkey: account(f[0]),
            hotkey: account(f[1]),
            netuid: smallInt(f[4]),
            taoRao: rao(f[2]),
            alphaRao: rao(f[3]),
            detail: f.length >= 6 ? { fee_rao: rao(f[5]).toString() } : null,
          });
          break;
        case 'StakeMoved':
          // (coldkey, origin hotkey, origin netuid, destination hotkey, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeMoved',
            coldkey: account(f[0]),
            hotkey: account(f[1]),
            netuid: smallInt(f[2]),
            taoRao: rao(f[5]),
            alphaRao: null,
            detail: { destination_hotkey: account(f[3]), destination_netuid: smallInt(f[4]) },
          });
          break;
        case 'StakeTransferred':
          // (origin coldkey, destination coldkey, hotkey, origin netuid, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeTransferred',
            coldkey: account(f[0]),
            hotkey: account(f[2]),
            netuid: smallInt(f[3]),
            taoRao: rao(f[5]),
            alphaRao: null,
            detail: { destination_coldkey: account(f[1]), destination_netuid: smallInt(f[4]) },
          });
          break;
        case 'StakeSwapped':
          // (coldkey, hotkey, origin netuid, destination netuid, tao)
          staking.push({
            ...base(event),
            kind: 'StakeSwapped',
            coldkey: account(f[0]),
            hotkey: account(f[1]),
            netuid: smallInt(f[2]),
            taoRao: rao(f[4]),
            alphaRao: null,
            detail: { destination_netuid: smallInt(f[3]) },
          });
          break;
      }
    } else if (event.pallet === 'Balances' && event.name === 'Transfer') {
      const from = account(f[0]);
      const to = account(f[1]);
      const fromSubnet = subnetOfAccount(from);
      const toSubnet = subnetOfAccount(to);
      const detail: Record<string, string | number> = { to };
      // A subnet's account on either side: the TAO leg of a stake or unstake (or a dissolution's payout).
      if (fromSubnet !== null) detail['from_subnet'] = fromSubnet;
      if (toSubnet !== null) detail['to_subnet'] = toSubnet;
      if (fromSubnet !== null && dissolved.has(fromSubnet)) detail['dissolved_netuid'] = fromSubnet;
      staking.push({
        ...base(event),
        kind: 'Transfer',
        coldkey: from,
        hotkey: null,
        netuid: null,
        taoRao: rao(f[2]),
        alphaRao: null,
        detail,
      });
    }
  }
  burns.sort((a, b) => a.eventIndex - b.eventIndex);
  return { burns, staking };
}

function lazyFields(event: DecodedEvent): Codec[] {
  return new Proxy([] as Codec[], { get: (_target, key) => Reflect.get(event.fields, key) });
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (test(item)) return item;
  }
  return undefined;
}
