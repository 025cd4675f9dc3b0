/**
 * User liquidity on the swap pallet and crowdloan contributions, as staking events (classify-events.ts), in the
 * shapes of opentensor/subtensor `pallets/swap/src/pallet/mod.rs` and `pallets/crowdloan/src/lib.rs` (both at
 * 835a2c902, the same in every runtime from 315 to 393):
 *   - `LiquidityAdded { coldkey, hotkey, netuid, position_id, liquidity, tao, alpha, tick_low, tick_high }`: the
 *     TAO left the free balance, the alpha the (coldkey, hotkey, netuid) stake;
 *   - `LiquidityRemoved { …, liquidity, tao, alpha, fee_tao, fee_alpha, tick_low, tick_high }`: principal and
 *     fees paid back, the TAO to the free balance, the alpha to the stake;
 *   - `LiquidityModified { …, liquidity: i64, tao: i64, alpha: i64, fee_tao, fee_alpha, … }`: liquidity added
 *     (positive) or taken out with the fees earned so far (negative);
 *   - `disable_lp` (spec 350 on, 5 December 2025) and a subnet's dissolution close every user position with no
 *     swap event naming it (`pallet/impls.rs` `do_dissolve_all_liquidity_providers` at 4d3a7ab34): the TAO
 *     principal is credited by `Balances.Deposit` after the subnet's `UserLiquidityToggled { netuid, false }` in
 *     the same extrinsic, the alpha principal and fees staked to the subnet's top validator with no event. That
 *     deposit is recorded as `LiquidityRefunded` (netuid: the toggled subnet); the alpha is for the reader of the
 *     chain's stake to find.
 *   - `Contributed`, `Withdrew { crowdloan_id, contributor, amount }`.
 */
import { fieldAccount, fieldInt, fieldRao } from './event-fields.js';
import type { DecodedEvent } from './runtime-codec.js';
import type { StakingEvent } from './staking-event.js';

type Classified = Pick<
  StakingEvent,
  'kind' | 'coldkey' | 'hotkey' | 'netuid' | 'taoRao' | 'alphaRao' | 'detail'
>;

/** A signed integer field (i64), through its codec. */
function signed(event: DecodedEvent, i: number): bigint {
  return BigInt(String(event.fields[i]?.toString() ?? '0'));
}

const abs = (value: bigint) => (value < 0n ? -value : value);

export function liquidityEvent(event: DecodedEvent): Classified | null {
  const position = () => ({
    coldkey: fieldAccount(event, 0),
    hotkey: fieldAccount(event, 1),
    netuid: fieldInt(event, 2),
  });
  const id = () => String(event.fields[3]?.toString());
  if (event.pallet === 'Swap') {
    switch (event.name) {
      case 'LiquidityAdded':
        return {
          kind: 'LiquidityAdded',
          ...position(),
          taoRao: fieldRao(event, 5),
          alphaRao: fieldRao(event, 6),
          detail: { position_id: id(), liquidity: signed(event, 4).toString() },
        };
      case 'LiquidityRemoved':
        return {
          kind: 'LiquidityRemoved',
          ...position(),
          taoRao: fieldRao(event, 5),
          alphaRao: fieldRao(event, 6),
          detail: {
            position_id: id(),
            liquidity: signed(event, 4).toString(),
            fee_tao_rao: fieldRao(event, 7).toString(),
            fee_alpha_rao: fieldRao(event, 8).toString(),
          },
        };
      case 'LiquidityModified': {
        // The TAO and alpha are signed: positive put in, negative taken out.
        const liquidity = signed(event, 4);
        return {
          kind: 'LiquidityModified',
          ...position(),
          taoRao: abs(signed(event, 5)),
          alphaRao: abs(signed(event, 6)),
          detail: {
            position_id: id(),
            liquidity: liquidity.toString(),
            fee_tao_rao: fieldRao(event, 7).toString(),
            fee_alpha_rao: fieldRao(event, 8).toString(),
          },
        };
      }
      default:
        return null;
    }
  }
  if (event.pallet === 'Crowdloan' && (event.name === 'Contributed' || event.name === 'Withdrew')) {
    return {
      kind: event.name === 'Contributed' ? 'CrowdloanContributed' : 'CrowdloanWithdrew',
      coldkey: fieldAccount(event, 1),
      hotkey: null,
      netuid: null,
      taoRao: fieldRao(event, 2),
      alphaRao: null,
      detail: { crowdloan_id: fieldInt(event, 0) },
    };
  }
  return null;
}

/**
 * The netuid a `Balances.Deposit` refunds a closed user position on, or null: a deposit after a
 * `UserLiquidityToggled { netuid, enable: false }` of the same extrinsic (the nearest one before it), and before
 * any later toggle of that extrinsic.
 */
export function liquidityRefundOf(events: readonly DecodedEvent[]): (deposit: DecodedEvent) => number | null {
  const toggles = events.filter(
    (e) =>
      e.pallet === 'Swap' && e.name === 'UserLiquidityToggled' && String(e.fields[1]?.toString()) === 'false',
  );
  if (toggles.length === 0) return () => null;
  return (deposit) => {
    let found: DecodedEvent | undefined;
    for (const toggle of toggles) {
      if (toggle.extrinsicIndex === deposit.extrinsicIndex && toggle.index < deposit.index) found = toggle;
    }
    return found ? fieldInt(found, 0) : null;
  };
}
