// User liquidity on the swap pallet, crowdloans and lease dividends credited as TAO: the demo coldkey's
// 2025/26 steps of these mechanisms (world/dated-life.ts), their amounts and the events their runtime emitted.
// Shared by stakers.ts (sizing, state) and block-events.ts (events) without a cycle.
import { u8aToHex } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import type { Account } from './accounts.js';
import type { LiquidityFill, StakingAction } from './staking-action.js';
import { addSignedKinds } from './tao-fees.js';
import type { WorldEvent } from './world-event.js';

/** The ticks of the demo's positions: a wide range around the price, so the position is always in range. */
export const LIQUIDITY_TICKS = { low: -69_082, high: 23_027 } as const;

/** Integer square root (floor) of a non-negative bigint. */
export function isqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  while (x * x > value) x -= 1n;
  while ((x + 1n) * (x + 1n) <= value) x += 1n;
  return x;
}

/**
 * A position opened at a pool of `poolTao` TAO and `poolAlpha` alpha with `alpha` of the coldkey's stake: the
 * TAO of equal value beside it, and the liquidity `sqrt(tao × alpha)` (a position inside its range holds
 * its two tokens in the pool's ratio).
 */
export function openPosition(
  positionId: number,
  alpha: bigint,
  poolTao: bigint,
  poolAlpha: bigint,
): LiquidityFill {
  const tao = poolAlpha === 0n ? alpha : (alpha * poolTao) / poolAlpha;
  return {
    positionId,
    liquidity: isqrt(tao * alpha),
    tao,
    alpha,
    feeTao: 0n,
    feeAlpha: 0n,
    tickLow: LIQUIDITY_TICKS.low,
    tickHigh: LIQUIDITY_TICKS.high,
  };
}

/**
 * What a position holds when it is closed at a pool of `poolTao`/`poolAlpha`: its liquidity L at the new price
 * P is `L·√P` TAO and `L/√P` alpha (the constant-product curve inside the range: more of the token that fell),
 * and the fees it earned meanwhile, `feePpm` parts per million of each side.
 */
export function closePosition(
  opened: LiquidityFill,
  poolTao: bigint,
  poolAlpha: bigint,
  feePpm: bigint,
): LiquidityFill {
  const product = opened.tao * opened.alpha;
  const tao = poolAlpha === 0n ? opened.tao : isqrt((product * poolTao) / poolAlpha);
  const alpha = poolTao === 0n ? opened.alpha : isqrt((product * poolAlpha) / poolTao);
  return {
    ...opened,
    tao,
    alpha,
    feeTao: (tao * feePpm) / 1_000_000n,
    feeAlpha: (alpha * feePpm) / 1_000_000n,
  };
}

const MODL = [0x6d, 0x6f, 0x64, 0x6c]; // b"modl"
const CLOAN = [0x62, 0x74, 0x2f, 0x63, 0x6c, 0x6f, 0x61, 0x6e]; // b"bt/cloan"

/**
 * A crowdloan's funds account: `PalletId(*b"bt/cloan")`'s sub-account for the crowdloan id, i.e. `modl` ++
 * `bt/cloan` ++ id (u32 little-endian) ++ zeros (`pallets/crowdloan/src/lib.rs` `funds_account`,
 * `runtime/src/lib.rs` `CrowdloanPalletId`, at 835a2c902).
 */
export function crowdloanAccount(id: number): Account {
  const publicKey = new Uint8Array(32);
  publicKey.set(MODL, 0);
  publicKey.set(CLOAN, 4);
  new DataView(publicKey.buffer).setUint32(12, id, true);
  return {
    label: `crowdloan-account/${id}`,
    publicKey,
    hex: u8aToHex(publicKey),
    address: encodeAddress(publicKey, 42),
  };
}

/**
 * The events of one of these steps, in the order the runtime of its date emits them (`System.ExtrinsicSuccess`
 * added by the caller):
 * - `add_liquidity`: the TAO withdrawn from the free balance (`decrease_balance`: `Currency::withdraw`, a
 *   `Balances.Withdraw`), the alpha taken off the stake with no event (`decrease_stake`), then `LiquidityAdded`;
 * - `remove_liquidity`: principal and fees back, the TAO by `increase_balance` (`Currency::deposit`, a
 *   `Balances.Deposit`), the alpha onto the stake with no event, then `LiquidityRemoved`;
 * - `disable_lp` (root, `Sudo.sudo`; spec 350, 5 December 2025): `UserLiquidityToggled { netuid, false }`, then
 *   each user position closed by `do_dissolve_all_liquidity_providers`: its TAO principal credited by
 *   `increase_balance` (a `Balances.Deposit`; its TAO fees are not paid out), its alpha principal and fees staked
 *   to the subnet's validator of highest trust by `increase_stake`, with no event: no swap event names the
 *   position or its owner;
 * - `contribute`: the TAO to the crowdloan's funds account (`Balances.Transfer`), then `Contributed`;
 * - `refund` (after a crowdloan's end, unfinalized): each contribution back by `Balances.Transfer` from the
 *   funds account, then `AllRefunded { crowdloan_id }`, which names no contributor;
 * - lease dividends before spec 361 (`subnets/leasing.rs` `distribute_leased_network_dividends` at 4d3a7ab34,
 *   phase Initialization): the lease coldkey's cut unstaked (`StakeRemoved` naming the lease coldkey) and each
 *   contributor's TAO credited by `add_balance_to_coldkey_account` (a `Balances.Deposit`): nothing names the
 *   credit a lease dividend.
 */
export function mechanismEvents(action: StakingAction): WorldEvent[] {
  const who = action.coldkey.publicKey;
  const hotkey = action.hotkey?.publicKey;
  const netuid = action.netuid ?? 0;
  const lp = action.liquidity;
  const positionArgs = (fill: LiquidityFill) => [who, hotkey, netuid, fill.positionId, fill.liquidity];
  switch (action.kind) {
    case 'LiquidityAdded':
      return [
        { pallet: 'Balances', name: 'Withdraw', args: [who, lp!.tao] },
        {
          pallet: 'Swap',
          name: 'LiquidityAdded',
          args: [...positionArgs(lp!), lp!.tao, lp!.alpha, lp!.tickLow, lp!.tickHigh],
        },
      ];
    case 'LiquidityRemoved':
      return [
        { pallet: 'Balances', name: 'Deposit', args: [who, lp!.tao + lp!.feeTao] },
        {
          pallet: 'Swap',
          name: 'LiquidityRemoved',
          args: [
            ...positionArgs(lp!),
            lp!.tao,
            lp!.alpha,
            lp!.feeTao,
            lp!.feeAlpha,
            lp!.tickLow,
            lp!.tickHigh,
          ],
        },
      ];
    case 'LiquidityRefunded':
      return [
        { pallet: 'Swap', name: 'UserLiquidityToggled', args: [netuid, false] },
        { pallet: 'Balances', name: 'Deposit', args: [who, lp!.tao] },
      ];
    case 'CrowdloanContributed':
      return [
        {
          pallet: 'Balances',
          name: 'Transfer',
          args: [who, action.crowdloan!.account.publicKey, action.tao],
        },
        { pallet: 'Crowdloan', name: 'Contributed', args: [action.crowdloan!.id, who, action.tao] },
      ];
    case 'CrowdloanRefunded':
      return [
        {
          pallet: 'Balances',
          name: 'Transfer',
          args: [action.crowdloan!.account.publicKey, who, action.tao],
        },
        { pallet: 'Crowdloan', name: 'AllRefunded', args: [action.crowdloan!.id] },
      ];
    case 'LeaseDividendsCredited': {
      const lease = action.lease!;
      return [
        {
          pallet: 'SubtensorModule',
          name: 'StakeRemoved',
          args: [lease.coldkey.publicKey, hotkey, action.tao, action.alpha, netuid, 0n],
        },
        { pallet: 'Balances', name: 'Deposit', args: [who, action.tao] },
      ];
    }
    default:
      throw new Error(`user liquidity: ${action.kind} is not one of its steps`);
  }
}

/** The event that names a step (the truth's `event_index`): the one naming the demo coldkey. */
export function namingEventOf(action: StakingAction): string {
  switch (action.kind) {
    case 'LiquidityRefunded':
    case 'LeaseDividendsCredited':
      return 'Deposit';
    case 'CrowdloanContributed':
      return 'Contributed';
    case 'CrowdloanRefunded':
      return 'Transfer';
    default:
      return action.kind;
  }
}

/** The kinds `mechanismEvents` places. */
export const MECHANISM_KINDS: ReadonlySet<string> = new Set([
  'LiquidityAdded',
  'LiquidityRemoved',
  'LiquidityRefunded',
  'CrowdloanContributed',
  'CrowdloanRefunded',
  'LeaseDividendsCredited',
]);

// The demo's own calls pay their transaction fee like any signed call (tao-fees.ts). A crowdloan's refund is
// signed by whoever calls `refund`, a position's refund by `disable_lp`'s root origin, and a lease dividend
// is the epoch's: none of them the demo's.
addSignedKinds(['LiquidityAdded', 'LiquidityRemoved', 'CrowdloanContributed']);
