/**
 * One extrinsic, one economic action, on the events the current runtime (opentensor/subtensor spec 425)
 * emits per call: the `Balances.Transfer` legs to and from the subnet's account, the StakeRemoved/StakeAdded
 * pair of a move with its summary event. Booked through the real mapping on small chain states (pools at 1 TAO
 * per alpha, TAO at £2): each extrinsic at most one disposal per asset, no subnet account ever "outside".
 */
import { describe, expect, it } from 'vitest';
import { subnetAccount, subnetOfAccount } from '../../../../pipeline/chain/subnet-account.js';
import {
  economicAction,
  groupEvents,
} from '../../../../pipeline/tax/chain-record/actions/economic-action.js';
import type { LedgerEvent } from '../../../../pipeline/tax/chain-record/ledger-event.js';
import { type PositionRef, positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { JANUARY_PRICES } from '../../products/pack/january-prices.js';
import { type BlockState, dayOf, stakesOf, TAO, timeOfBlock } from '../../products/pack/ledger-cases.js';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const STRANGER = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
const PRICES = JANUARY_PRICES;
const opening = dayOf(0);
const BLOCK = opening.block + 50;
const p5 = { coldkey: ALICE, hotkey: '5H', netuid: 5 };
const p5b = { coldkey: ALICE, hotkey: '5H2', netuid: 5 };
const p6 = { coldkey: ALICE, hotkey: '5H', netuid: 6 };

let index = 0;
function ev(kind: LedgerEvent['kind'], fields: Partial<LedgerEvent>): LedgerEvent {
  index += 1;
  return {
    coldkey: ALICE,
    block: BLOCK,
    event_index: index,
    extrinsic_index: 2,
    time: timeOfBlock(BLOCK).toISOString(),
    kind,
    role: 'origin',
    hotkey: null,
    netuid: null,
    tao_rao: null,
    alpha_rao: null,
    fee_rao: null,
    counterpart_coldkey: null,
    counterpart_hotkey: null,
    counterpart_netuid: null,
    ...fields,
  };
}
const tao = (n: bigint) => (n * TAO).toString();
const toSubnet = (netuid: number, amount: bigint, from = ALICE) =>
  ev('Transfer', {
    coldkey: from,
    tao_rao: tao(amount),
    counterpart_coldkey: subnetAccount(netuid),
    to_subnet: netuid,
    from_subnet: null,
  });
const fromSubnet = (netuid: number, amount: bigint, to = ALICE, dissolved = false) =>
  ev('Transfer', {
    coldkey: to,
    role: 'destination',
    tao_rao: tao(amount),
    counterpart_coldkey: subnetAccount(netuid),
    from_subnet: netuid,
    dissolved_netuid: dissolved ? netuid : null,
  });
const staked = (p: PositionRef, amount: bigint) =>
  ev('StakeAdded', {
    coldkey: p.coldkey,
    hotkey: p.hotkey,
    netuid: p.netuid,
    tao_rao: tao(amount),
    alpha_rao: tao(amount),
    fee_rao: '0',
  });
const unstaked = (p: PositionRef, amount: bigint) =>
  ev('StakeRemoved', {
    coldkey: p.coldkey,
    hotkey: p.hotkey,
    netuid: p.netuid,
    tao_rao: tao(amount),
    alpha_rao: tao(amount),
    fee_rao: '0',
  });

function booked(events: LedgerEvent[], before: BlockState, after: BlockState, coldkeys = [ALICE]) {
  const order = new Set(coldkeys);
  const actions = groupEvents(events).map((group) => economicAction(group, order));
  const mapping = cgtTransactions({
    coldkeys: order,
    opening,
    actions,
    income: [],
    days: [],
    // The record opens holding what is there before the block, and 100 TAO free on each coldkey.
    positions: Object.keys(before.stake ?? {}).map((id) => {
      const [coldkey, hotkey, netuid] = id.split('/');
      return { coldkey: coldkey!, hotkey: hotkey!, netuid: Number(netuid) };
    }),
    stakes: stakesOf({
      [opening.block]: { ...before, free: Object.fromEntries(coldkeys.map((c) => [c, 100n * TAO])) },
      [BLOCK - 1]: before,
      [BLOCK]: after,
    }),
    prices: PRICES,
  });
  return {
    actions,
    mapping,
    lines: mapping.events.flatMap((e) =>
      e.transactions.map((tx) => `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}`),
    ),
  };
}

describe('the subnet account', () => {
  it('is modl, subtensr, the netuid as u16 LE, then zeros', () => {
    expect(subnetOfAccount(subnetAccount(5))).toBe(5);
    expect(subnetOfAccount(subnetAccount(300))).toBe(300);
    expect(subnetOfAccount(ALICE)).toBeNull();
  });
});

describe('current runtime extrinsics, one action each', () => {
  it('a stake (its TAO transfer to the subnet account, then StakeAdded) disposes of TAO once', () => {
    const { lines, actions, mapping } = booked(
      [toSubnet(5, 10n), staked(p5, 10n)],
      { stake: { [positionId(p5)]: 0n } },
      { stake: { [positionId(p5)]: 10n * TAO } },
    );
    expect(actions.map((a) => a.kind)).toEqual(['stake']);
    expect(lines).toEqual(['dispose 10 TAO £20', 'acquire 10 alpha:5:1 £20']);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('an unstake (StakeRemoved, then the payout from the subnet account) disposes of alpha once', () => {
    const { lines, mapping } = booked(
      [unstaked(p5, 4n), fromSubnet(5, 4n)],
      { stake: { [positionId(p5)]: 10n * TAO } },
      { stake: { [positionId(p5)]: 6n * TAO } },
    );
    expect(lines).toEqual(['dispose 4 alpha:5:1 £8', 'acquire 4 TAO £8']);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('a move to another subnet (StakeRemoved, TAO legs, StakeAdded, StakeMoved) is one exchange', () => {
    const { lines, actions } = booked(
      [
        fromSubnet(5, 3n),
        unstaked(p5, 3n),
        toSubnet(6, 3n),
        staked(p6, 3n),
        ev('StakeMoved', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(3n),
          counterpart_coldkey: ALICE,
          counterpart_hotkey: '5H',
          counterpart_netuid: 6,
        }),
      ],
      { stake: { [positionId(p5)]: 10n * TAO, [positionId(p6)]: 0n } },
      { stake: { [positionId(p5)]: 7n * TAO, [positionId(p6)]: 3n * TAO } },
    );
    expect(actions.map((a) => [a.kind, a.events.length])).toEqual([['exchange', 5]]);
    expect(lines).toEqual(['dispose 3 alpha:5:1 £6', 'acquire 3 alpha:6:1 £6']);
  });

  it('a move within a subnet (StakeRemoved and StakeAdded with the TAO equivalent) is nothing', () => {
    const { lines, actions } = booked(
      [
        unstaked(p5, 3n),
        staked(p5b, 3n),
        ev('StakeMoved', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(3n),
          counterpart_coldkey: ALICE,
          counterpart_hotkey: '5H2',
          counterpart_netuid: 5,
        }),
      ],
      { stake: { [positionId(p5)]: 10n * TAO, [positionId(p5b)]: 0n } },
      { stake: { [positionId(p5)]: 7n * TAO, [positionId(p5b)]: 3n * TAO } },
    );
    expect(actions.map((a) => a.kind)).toEqual(['move']);
    expect(lines).toEqual([]);
  });

  it('a stake transfer to a coldkey outside the order is one disposal at market value, flagged', () => {
    const { lines, mapping } = booked(
      [
        unstaked(p5, 2n),
        ev('Transfer', { tao_rao: tao(2n), counterpart_coldkey: STRANGER }),
        ev('StakeTransferred', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(2n),
          counterpart_coldkey: STRANGER,
          counterpart_hotkey: '5H',
          counterpart_netuid: 6,
        }),
      ],
      { stake: { [positionId(p5)]: 10n * TAO } },
      { stake: { [positionId(p5)]: 8n * TAO } },
    );
    expect(lines).toEqual(['dispose 2 alpha:5:1 £4']);
    expect(mapping.flags.map((f) => f.kind)).toEqual(['opening', 'transfer-out']);
  });

  it('a stake transfer between coldkeys of the order on one subnet is nothing', () => {
    const bob5 = { coldkey: BOB, hotkey: '5H', netuid: 5 };
    const { lines, mapping } = booked(
      [
        unstaked(p5, 2n),
        staked(bob5, 2n),
        ev('StakeTransferred', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(2n),
          counterpart_coldkey: BOB,
          counterpart_hotkey: '5H',
          counterpart_netuid: 5,
        }),
      ],
      { stake: { [positionId(p5)]: 10n * TAO, [positionId(bob5)]: 0n } },
      { stake: { [positionId(p5)]: 8n * TAO, [positionId(bob5)]: 2n * TAO } },
      [ALICE, BOB],
    );
    expect(lines).toEqual([]);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('a dissolution pays TAO from the subnet account: the alpha disposed of for the TAO paid', () => {
    const { lines, actions, mapping } = booked(
      [
        { ...fromSubnet(5, 7n, ALICE, true), extrinsic_index: null },
        { ...fromSubnet(5, 1n, ALICE, true), extrinsic_index: null },
      ],
      { stake: { [positionId(p5)]: 6n * TAO, [positionId(p5b)]: 2n * TAO } },
      { stake: {}, subnets: { 5: { registeredAt: 0, taoRao: null, alphaInRao: null } } },
    );
    expect(actions.map((a) => a.kind)).toEqual(['dissolution']);
    expect(lines).toEqual(['dispose 8 alpha:5:1 £16', 'acquire 8 TAO £16']);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('a recycle by the holder is a disposal for nothing', () => {
    const { lines, actions } = booked(
      [ev('AlphaRecycled', { hotkey: '5H', netuid: 5, alpha_rao: tao(1n) })],
      { stake: { [positionId(p5)]: 10n * TAO } },
      { stake: { [positionId(p5)]: 9n * TAO } },
    );
    expect(actions.map((a) => a.kind)).toEqual(['recycle']);
    expect(lines).toEqual(['dispose 1 alpha:5:1 £0']);
  });

  it('an unstake whose fee was paid in alpha is one disposal of that alpha, fee included; the fee allowable, half on each side', () => {
    const { lines, mapping } = booked(
      [
        ev('TransactionFeePaidWithAlpha', { netuid: 5, alpha_rao: '100000000', tao_rao: '100000000' }),
        unstaked(p5, 4n),
        fromSubnet(5, 4n),
      ],
      { stake: { [positionId(p5)]: 10n * TAO } },
      { stake: { [positionId(p5)]: 5_900_000_000n } },
    );
    // The fee (0.1 alpha, swapped for 0.1 TAO = £0.2) is in the disposal's quantity and proceeds, and is a
    // cost of the exchange: £0.1 allowable on the disposal, £0.1 on the TAO's cost (BittyTax's default split).
    expect(lines).toEqual(['dispose 4.1 alpha:5:1 £8.2', 'acquire 4 TAO £8.1']);
    const disposal = mapping.transactions.find((tx) => tx.action === 'dispose')!;
    expect(disposal.fee?.toFixed()).toBe('0.1');
    expect(disposal.paidAsFee?.quantity.toFixed()).toBe('0.1');
  });

  it('a hotkey swap and an auto-stake book nothing by themselves', () => {
    const { lines, actions } = booked(
      [
        ev('HotkeySwapped', { hotkey: '5H', netuid: null, extrinsic_index: 3 } as Partial<LedgerEvent>),
        ev('AutoStakeAdded', { hotkey: '5H', netuid: 5, alpha_rao: tao(1n), extrinsic_index: null }),
      ],
      { stake: { [positionId(p5)]: 10n * TAO } },
      { stake: { [positionId(p5)]: 10n * TAO } },
    );
    expect(actions.map((a) => a.kind).sort()).toEqual(['income', 'key-swap']);
    expect(lines).toEqual([]);
  });

  it('never books a transfer to or from a subnet account as outside the order', () => {
    const { mapping } = booked(
      [toSubnet(5, 10n), staked(p5, 10n)],
      { stake: { [positionId(p5)]: 0n } },
      { stake: { [positionId(p5)]: 10n * TAO } },
    );
    expect(mapping.flags.filter((f) => f.kind === 'transfer-out' || f.kind === 'transfer-in')).toEqual([]);
  });
});
