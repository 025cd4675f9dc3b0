import type { Account } from './accounts.js';
import type { StakingAction } from './stakers.js';
import { subnetAccount } from './subnet-account.js';
import { taoMechanismEvents } from './tao-mechanisms.js';
import type { WorldEvent } from './world-event.js';

function transfer(from: Account, to: Account, amount: bigint): WorldEvent {
  return { pallet: 'Balances', name: 'Transfer', args: [from.publicKey, to.publicKey, amount] };
}

function stakeEvent(
  name: 'StakeAdded' | 'StakeRemoved',
  coldkey: Account,
  hotkey: Account,
  tao: bigint,
  alpha: bigint,
  netuid: number,
  fee: bigint,
): WorldEvent {
  return {
    pallet: 'SubtensorModule',
    name,
    args: [coldkey.publicKey, hotkey.publicKey, tao, alpha, netuid, fee],
  };
}

/**
 * The events one action's extrinsic emits in spec 425, in the order the runtime
 * emits them; `System.ExtrinsicSuccess` is added by the caller. `AutoStakeAdded` is an epoch event
 * (phase Initialization), also returned here. Sources (opentensor/subtensor, pallets/subtensor/src/):
 * - staking: `staking/stake_utils.rs` `stake_into_subnet` (`coinbase/tao.rs` `transfer_tao_to_subnet`,
 *   then `StakeAdded`) and `unstake_from_subnet` (`transfer_tao_from_subnet`, then `StakeRemoved`);
 * - moves, swaps, stake transfers: `staking/move_stake.rs` `transition_stake_internal` (across subnets:
 *   unstake, a TAO transfer between coldkeys, stake; within a subnet `transfer_stake_within_subnet`:
 *   `StakeRemoved` then `StakeAdded` with the TAO equivalent and no fee), then the call's summary event;
 * - `swap/swap_hotkey.rs` (`HotkeySwapped`), `swap/swap_coldkey.rs` (`transfer_all_tao_and_kill`, then
 *   `ColdkeySwapped`), `coinbase/root.rs` `do_dissolve_network` (`destroy_alpha_in_out_stakes` pays each
 *   holder from the subnet account, then `NetworkRemoved`), `staking/recycle_alpha.rs` (`AlphaRecycled`),
 *   `pallets/transaction-fee` (`TransactionFeePaidWithAlpha` after the call's own events),
 *   `coinbase/run_coinbase.rs` (`AutoStakeAdded`), `staking/claim_root.rs` (`RootClaimed`).
 */
export function spec425Events(action: StakingAction): WorldEvent[] {
  const coldkey = action.coldkey;
  const hotkey = action.hotkey;
  const netuid = action.netuid ?? 0;
  switch (action.kind) {
    case 'StakeAdded':
      return [
        transfer(coldkey, subnetAccount(netuid), action.tao),
        stakeEvent('StakeAdded', coldkey, hotkey!, action.tao, action.alpha!, netuid, action.fee),
      ];
    case 'StakeRemoved': {
      const events = [
        transfer(subnetAccount(netuid), coldkey, action.tao),
        stakeEvent('StakeRemoved', coldkey, hotkey!, action.tao, action.alpha!, netuid, action.fee),
      ];
      if (action.alphaFee !== undefined) {
        events.push({
          pallet: 'SubtensorModule',
          name: 'TransactionFeePaidWithAlpha',
          args: [coldkey.publicKey, netuid, action.alphaFee, action.feeTao ?? 0n],
        });
      }
      return events;
    }
    case 'StakeMoved':
    case 'StakeSwapped':
    case 'StakeTransferred': {
      const destColdkey = action.destColdkey ?? coldkey;
      const destHotkey = action.destHotkey ?? hotkey!;
      const destNetuid = action.destNetuid!;
      const events: WorldEvent[] = [];
      if (destNetuid === netuid) {
        events.push(
          stakeEvent('StakeRemoved', coldkey, hotkey!, action.tao, action.alpha!, netuid, 0n),
          stakeEvent('StakeAdded', destColdkey, destHotkey, action.tao, action.destAlpha!, netuid, 0n),
        );
      } else {
        events.push(
          transfer(subnetAccount(netuid), coldkey, action.tao),
          stakeEvent('StakeRemoved', coldkey, hotkey!, action.tao, action.alpha!, netuid, action.fee),
        );
        if (destColdkey !== coldkey) events.push(transfer(coldkey, destColdkey, action.tao));
        events.push(
          transfer(destColdkey, subnetAccount(destNetuid), action.tao),
          stakeEvent('StakeAdded', destColdkey, destHotkey, action.tao, action.destAlpha!, destNetuid, 0n),
        );
      }
      events.push(summary(action));
      return events;
    }
    case 'Transfer':
      return [transfer(coldkey, action.destColdkey!, action.tao)];
    case 'HotkeySwapped':
      return [
        {
          pallet: 'SubtensorModule',
          name: 'HotkeySwapped',
          args: [coldkey.publicKey, hotkey!.publicKey, action.destHotkey!.publicKey],
        },
      ];
    case 'ColdkeySwapped':
      return [
        transfer(coldkey, action.destColdkey!, action.tao),
        {
          pallet: 'SubtensorModule',
          name: 'ColdkeySwapped',
          args: [coldkey.publicKey, action.destColdkey!.publicKey],
        },
      ];
    case 'NetworkRemoved':
      return [
        ...(action.payouts ?? [])
          .filter((p) => p.tao > 0n)
          .map((p) => transfer(subnetAccount(netuid), p.staker.coldkey, p.tao)),
        { pallet: 'SubtensorModule', name: 'NetworkRemoved', args: [netuid] },
      ];
    case 'AlphaRecycled':
      return [
        {
          pallet: 'SubtensorModule',
          name: 'AlphaRecycled',
          args: [coldkey.publicKey, hotkey!.publicKey, action.alpha, netuid],
        },
      ];
    case 'AutoStakeAdded':
      return [
        {
          pallet: 'SubtensorModule',
          name: 'AutoStakeAdded',
          args: [netuid, hotkey!.publicKey, action.destHotkey!.publicKey, coldkey.publicKey, action.alpha],
        },
      ];
    case 'RootClaimed':
      return [{ pallet: 'SubtensorModule', name: 'RootClaimed', args: [coldkey.publicKey] }];
    case 'IncentiveAlphaEmittedToMiners':
      // Epoch (phase Initialization), `coinbase/run_coinbase.rs`: incentive by UID, no account named; the
      // miner's alpha is staked to (miner hotkey, owner coldkey) without any staking event.
      return [
        {
          pallet: 'SubtensorModule',
          name: 'IncentiveAlphaEmittedToMiners',
          args: [netuid, action.incentives!.emissions],
        },
      ];
    case 'ProxyAdded':
    case 'ProxyRemoved':
    case 'NeuronRegistered':
    case 'EvmDeposit':
    case 'EvmWithdraw':
      // The demo's TAO mechanisms run in January 2026 (tao-mechanisms.ts), whose events block-events.ts places.
      return taoMechanismEvents(action, 0);
    case 'LimitOrdersExecuted':
      // `pallets/limit-orders/src/lib.rs` `do_execute_batched_orders`, in its order (world/limit-orders.ts).
      return action.limitOrders!.events;
    case 'AlphaV2Migration': {
      // `on_idle` (phase Finalization), `migrations/migrate_alpha_v2.rs`: each settled row's events in
      // cursor order, then the block's burn of the dust's TAO.
      const migration = action.migration!;
      return [
        ...migration.rows.flatMap((row) => row.events),
        ...(migration.burnEvent ? [migration.burnEvent] : []),
      ];
    }
    case 'SubnetLeaseDividendsDistributed': {
      // Epoch (phase Initialization), `subnets/leasing.rs` `distribute_leased_network_dividends`:
      // `transfer_stake_within_subnet` from the lease coldkey, then the event, per contributor.
      const lease = action.lease!;
      return [
        stakeEvent('StakeRemoved', lease.coldkey, hotkey!, action.tao, action.alpha!, netuid, 0n),
        stakeEvent('StakeAdded', coldkey, hotkey!, action.tao, action.alpha!, netuid, 0n),
        {
          pallet: 'SubtensorModule',
          name: 'SubnetLeaseDividendsDistributed',
          args: [lease.id, coldkey.publicKey, action.alpha],
        },
      ];
    }
    default:
      // The 2025/26 life's user liquidity and crowdloans: world/user-liquidity.ts.
      throw new Error(`spec 425 events: ${action.kind} is not a spec 425 action`);
  }
}

function summary(action: StakingAction): WorldEvent {
  const coldkey = action.coldkey.publicKey;
  const hotkey = action.hotkey!.publicKey;
  switch (action.kind) {
    case 'StakeMoved':
      return {
        pallet: 'SubtensorModule',
        name: 'StakeMoved',
        args: [coldkey, hotkey, action.netuid, action.destHotkey!.publicKey, action.destNetuid, action.tao],
      };
    case 'StakeSwapped':
      return {
        pallet: 'SubtensorModule',
        name: 'StakeSwapped',
        args: [coldkey, hotkey, action.netuid, action.destNetuid, action.tao],
      };
    default:
      return {
        pallet: 'SubtensorModule',
        name: 'StakeTransferred',
        args: [coldkey, action.destColdkey!.publicKey, hotkey, action.netuid, action.destNetuid, action.tao],
      };
  }
}
