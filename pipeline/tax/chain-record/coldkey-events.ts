/**
 * A collected staking event as each coldkey it concerns sees it (`tax/coldkeys/<shard>.json`). Every event
 * belongs to its origin coldkey (the staker, the sender); a `Transfer` and a `StakeTransferred` also belong
 * to the coldkey that received the TAO or the stake.
 *
 * The fields are this coldkey's side first and the other side as the counterpart:
 *   - origin: hotkey and netuid are where the stake was (the event's origin); the counterpart is where it
 *     went: a move's destination hotkey and subnet (same coldkey), a swap's destination subnet (same
 *     coldkey and hotkey), a stake transfer's destination coldkey and subnet (same hotkey), a transfer's
 *     recipient. StakeAdded and StakeRemoved have no counterpart.
 *   - destination: hotkey and netuid are where the received stake now is (a stake transfer keeps the
 *     hotkey and lands on its destination subnet; a plain transfer has neither); the counterpart is the
 *     origin coldkey, hotkey and subnet.
 * Amounts are the event's own (the TAO value of a move, swap or transfer; alpha on StakeAdded and
 * StakeRemoved only), but for a stake of a runtime before spec 257 (its fee unreported: below); the fee is on
 * StakeAdded and StakeRemoved, and only on the origin's side.
 */
import type { StakingEvent } from '../../chain/staking-event.js';
import type { ColdkeyEvent } from '../../contract/tax-published.js';

export type ColdkeyRole = ColdkeyEvent['role'];

/** The coldkey that received something from the event, or null when only its origin is concerned. */
export function receiverOf(event: StakingEvent): string | null {
  if (event.kind === 'Transfer')
    return event.detail?.['to_subnet'] === undefined ? detailText(event, 'to') : null;
  if (event.kind === 'StakeTransferred') return detailText(event, 'destination_coldkey');
  if (event.kind === 'ColdkeySwapped') return detailText(event, 'new_coldkey');
  return null;
}

/** Whether the event's origin is a subnet's own account (an unstake's or a dissolution's TAO leg): no record. */
export function originIsSubnet(event: StakingEvent): boolean {
  return event.kind === 'Transfer' && event.detail?.['from_subnet'] !== undefined;
}

/** The coldkeys an event concerns, each with its role: the origin first. */
export function sidesOf(event: StakingEvent): Array<{ coldkey: string; role: ColdkeyRole }> {
  const receiver = receiverOf(event);
  const sides: Array<{ coldkey: string; role: ColdkeyRole }> = originIsSubnet(event)
    ? []
    : [{ coldkey: event.coldkey, role: 'origin' }];
  if (receiver !== null) sides.push({ coldkey: receiver, role: 'destination' });
  return sides;
}

export function coldkeyEvent(event: StakingEvent, role: ColdkeyRole): ColdkeyEvent {
  const destination = destinationOf(event);
  const origin = { coldkey: event.coldkey, hotkey: event.hotkey, netuid: event.netuid };
  const [mine, other] = role === 'origin' ? [origin, destination] : [destination, origin];
  const unreported = unreportedStakingFee(event);
  const fee =
    role !== 'origin' ? null : unreported !== null ? unreported.toString() : detailText(event, 'fee_rao');
  const taoRao = event.taoRao === null ? null : event.taoRao + (unreported ?? 0n);
  const subnet = (field: string) => {
    const value = event.detail?.[field];
    return value === undefined || value === null ? null : Number(value);
  };
  return {
    block: event.block,
    event_index: event.eventIndex,
    extrinsic_index: event.extrinsicIndex,
    time: new Date(event.blockTime).toISOString(),
    kind: event.kind,
    role,
    hotkey: mine?.hotkey ?? null,
    netuid: mine?.netuid ?? null,
    tao_rao: taoRao === null ? null : taoRao.toString(),
    alpha_rao: event.alphaRao === null ? null : event.alphaRao.toString(),
    fee_rao: fee,
    counterpart_coldkey: other?.coldkey ?? null,
    counterpart_hotkey: other?.hotkey ?? null,
    counterpart_netuid: other?.netuid ?? null,
    ...(event.kind === 'Transfer'
      ? {
          from_subnet: subnet('from_subnet'),
          to_subnet: subnet('to_subnet'),
          dissolved_netuid: subnet('dissolved_netuid'),
        }
      : {}),
    ...(event.kind === 'HotkeySwapped' || event.kind === 'HotkeySwappedOnSubnet'
      ? { new_hotkey: detailText(event, 'new_hotkey') }
      : {}),
    ...(event.kind === 'LimitOrderExecuted' ? { order_type: detailText(event, 'order_type') } : {}),
    ...liquidityFields(event),
  };
}

/**
 * `DefaultStakingFee` (`lib.rs` at e2b8367b8, spec 233): the flat fee every stake paid until spec 257.
 */
export const SPEC_233_STAKING_FEE_RAO = 50_000n;

/**
 * The fee a stake paid that its event does not report: before spec 257 `StakeAdded` has five fields and its
 * tao is what was staked after the flat `DefaultStakingFee` (`staking/stake_utils.rs` `stake_into_subnet` at
 * e2b8367b8), while the coldkey's free TAO paid the whole amount. Such a stake is published as later runtimes
 * report one: the TAO staked (the event's tao plus that fee) and the fee, so the pack disposes of every rao that
 * left the coldkey. An unstake's tao is already what the coldkey received. Null for every other event.
 */
function unreportedStakingFee(event: StakingEvent): bigint | null {
  if (event.kind !== 'StakeAdded' || event.taoRao === null) return null;
  return event.detail?.['fee_rao'] === undefined ? SPEC_233_STAKING_FEE_RAO : null;
}

interface Side {
  coldkey: string | null;
  hotkey: string | null;
  netuid: number | null;
}

/** Where the stake or TAO went; null for StakeAdded and StakeRemoved (nothing goes anywhere else). */
function destinationOf(event: StakingEvent): Side | null {
  switch (event.kind) {
    case 'StakeMoved':
      return {
        coldkey: event.coldkey,
        hotkey: detailText(event, 'destination_hotkey'),
        netuid: detailNumber(event, 'destination_netuid'),
      };
    case 'StakeSwapped':
      return {
        coldkey: event.coldkey,
        hotkey: event.hotkey,
        netuid: detailNumber(event, 'destination_netuid'),
      };
    case 'StakeTransferred':
      return {
        coldkey: detailText(event, 'destination_coldkey'),
        hotkey: event.hotkey,
        netuid: detailNumber(event, 'destination_netuid'),
      };
    case 'Transfer':
      return { coldkey: detailText(event, 'to'), hotkey: null, netuid: null };
    case 'ColdkeySwapped':
      return { coldkey: detailText(event, 'new_coldkey'), hotkey: null, netuid: null };
    case 'HotkeySwapped':
    case 'HotkeySwappedOnSubnet':
      return { coldkey: event.coldkey, hotkey: detailText(event, 'new_hotkey'), netuid: event.netuid };
    default:
      return null;
  }
}

function detailText(event: StakingEvent, field: string): string | null {
  const value = event.detail?.[field];
  return value === undefined || value === null ? null : String(value);
}

function detailNumber(event: StakingEvent, field: string): number | null {
  const value = event.detail?.[field];
  return value === undefined || value === null ? null : Number(value);
}

/** A liquidity position's and a crowdloan's own fields (`chain/liquidity-events.ts`), where the event has them. */
function liquidityFields(event: StakingEvent): Partial<ColdkeyEvent> {
  switch (event.kind) {
    case 'LiquidityAdded':
    case 'LiquidityRemoved':
    case 'LiquidityModified':
      return {
        position_id: detailText(event, 'position_id'),
        liquidity: detailText(event, 'liquidity'),
        ...(event.kind === 'LiquidityAdded'
          ? {}
          : {
              fee_tao_rao: detailText(event, 'fee_tao_rao'),
              fee_alpha_rao: detailText(event, 'fee_alpha_rao'),
            }),
      };
    case 'CrowdloanContributed':
    case 'CrowdloanWithdrew':
      return { crowdloan_id: detailNumber(event, 'crowdloan_id') };
    case 'Transfer': {
      const from = detailNumber(event, 'from_crowdloan');
      const to = detailNumber(event, 'to_crowdloan');
      return {
        ...(from !== null ? { from_crowdloan: from } : {}),
        ...(to !== null ? { to_crowdloan: to } : {}),
      };
    }
    default:
      return {};
  }
}
