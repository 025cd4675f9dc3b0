/**
 * User liquidity on the swap pallet and crowdloan contributions, booked through the real mapping (events →
 * economic actions → capital gains transactions) on small chain states: pools at 1 TAO per alpha unless given,
 * TAO at £2. A position is its own asset (`liquidity:<netuid>:<id>`): entering is a disposal of the TAO and
 * alpha at market value (beneficial ownership passes, CRYPTO61620), leaving a disposal of the position for the
 * principal, the fees income. A contribution is TAO given for a right (`crowdloan:<id>`), a refund the reverse.
 */
import { describe, expect, it } from 'vitest';
import { crowdloanAccount, crowdloanOfAccount } from '../../../../pipeline/chain/crowdloan-account.js';
import {
  economicAction,
  groupEvents,
} from '../../../../pipeline/tax/chain-record/actions/economic-action.js';
import type { LedgerEvent } from '../../../../pipeline/tax/chain-record/ledger-event.js';
import { positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { bittytaxCsv } from '../../../../pipeline/tax/products/pack/exports/bittytax-csv.js';
import { exportRecords } from '../../../../pipeline/tax/products/pack/exports/export-records.js';
import { koinlyCsv } from '../../../../pipeline/tax/products/pack/exports/koinly-csv.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { JANUARY_PRICES } from '../../products/pack/january-prices.js';
import { type BlockState, dayOf, stakesOf, TAO, timeOfBlock } from '../../products/pack/ledger-cases.js';
import { readCsv } from '../../products/pack/read-pack-csv.js';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const opening = dayOf(0);
const B1 = opening.block + 20;
const B2 = opening.block + 40;
const p5 = { coldkey: ALICE, hotkey: '5H', netuid: 5 };
const P5 = positionId(p5);
const tao = (n: bigint) => (n * TAO).toString();

let index = 0;
function ev(block: number, kind: LedgerEvent['kind'], fields: Partial<LedgerEvent>): LedgerEvent {
  index += 1;
  return {
    coldkey: ALICE,
    block,
    event_index: index,
    extrinsic_index: 2,
    time: timeOfBlock(block).toISOString(),
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

const added = (block: number, id: string, taoIn: bigint, alphaIn: bigint, liquidity: bigint) =>
  ev(block, 'LiquidityAdded', {
    hotkey: '5H',
    netuid: 5,
    tao_rao: tao(taoIn),
    alpha_rao: tao(alphaIn),
    position_id: id,
    liquidity: liquidity.toString(),
  });

/** Each block's state (the block before each action is the previous state); the record opens at `first`. */
function booked(events: LedgerEvent[], states: Array<[number, BlockState]>) {
  const order = new Set([ALICE]);
  const actions = groupEvents(events).map((group) => economicAction(group, order));
  const blocks: Record<number, BlockState> = {
    [opening.block]: { ...states[0]![1], free: { [ALICE]: 100n * TAO } },
  };
  for (const [i, [block, state]] of states.entries()) {
    blocks[block] = state;
    if (!(block - 1 in blocks)) blocks[block - 1] = i === 0 ? state : states[i - 1]![1];
  }
  const mapping = cgtTransactions({
    coldkeys: order,
    opening,
    actions,
    income: [],
    days: [],
    positions: [p5],
    stakes: stakesOf(blocks),
    prices: JANUARY_PRICES,
  });
  return {
    actions,
    mapping,
    lines: mapping.events.map((e) =>
      e.transactions.map(
        (tx) =>
          `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}${tx.kind === 'income' ? ` income (${tx.ref})` : ''}`,
      ),
    ),
  };
}

describe('user liquidity on the swap pallet', () => {
  it('adding is a disposal of the TAO and alpha at market value; removing disposes of the position for the principal', () => {
    const { actions, lines, mapping } = booked(
      [
        added(B1, '7', 10n, 10n, 10n * TAO),
        ev(B2, 'LiquidityRemoved', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(14n),
          alpha_rao: tao(7n),
          fee_tao_rao: tao(1n),
          fee_alpha_rao: (TAO / 2n).toString(),
          position_id: '7',
          liquidity: (10n * TAO).toString(),
        }),
      ],
      [
        [B1 - 1, { stake: { [P5]: 50n * TAO } }],
        [B1, { stake: { [P5]: 40n * TAO } }],
        // The price doubled while the position was open: it came back with less alpha and more TAO.
        [B2 - 1, { stake: { [P5]: 40n * TAO }, subnets: { 5: { taoRao: 2000n * TAO } } }],
        [B2, { stake: { [P5]: 47n * TAO + TAO / 2n }, subnets: { 5: { taoRao: 2000n * TAO } } }],
      ],
    );
    expect(actions.map((a) => a.kind)).toEqual(['liquidity', 'liquidity']);
    expect(lines).toEqual([
      ['dispose 10 TAO £20', 'dispose 10 alpha:5:1 £20', 'acquire 10 liquidity:5:7 £40'],
      // Proceeds: the principal, 14 TAO and 7 alpha at 2 TAO each (£56); the fees (1 TAO, 0.5 alpha) are
      // income at receipt, acquired at their value (1 TAO £2; 0.5 alpha at 2 TAO, £2) as their own rows.
      [
        'dispose 10 liquidity:5:7 £56',
        'acquire 14 TAO £28',
        'acquire 7 alpha:5:1 £28',
        `acquire 1 TAO £2 income (liquidity fees event ${B2}/${actions[1]!.events[0]!.event_index})`,
        `acquire 0.5 alpha:5:1 £2 income (liquidity fees event ${B2}/${actions[1]!.events[0]!.event_index})`,
      ],
    ]);
    // The receipt the pack's income shows: the fees, their value in TAO and in pounds.
    const fee = mapping.events[1]!.feeIncome!;
    expect([fee.date, fee.netuid, fee.positionIds, fee.taoRao, fee.alphaRao, fee.alphaValueTaoRao]).toEqual([
      dayOf(1).date,
      5,
      ['7'],
      TAO,
      TAO / 2n,
      TAO,
    ]);
    expect(fee.gbp.toFixed()).toBe('4');
    expect(mapping.events[0]!.feeIncome).toBeUndefined();
    // Nothing counted twice: what the removal acquired, principal and fees, is what the chain paid out.
    const acquired = (asset: string) =>
      mapping.events[1]!.transactions.filter((tx) => tx.action === 'acquire' && tx.asset === asset).reduce(
        (sum, tx) => sum.add(tx.quantity),
        new CgtDecimal(0),
      );
    expect(acquired('TAO').toFixed()).toBe('15');
    expect(acquired('alpha:5:1').toFixed()).toBe('7.5');
    // The exports list the fees as income (BittyTax Income, Koinly income), the principal as before.
    const records = exportRecords(mapping.transactions, mapping.events);
    const bittytax = readCsv(bittytaxCsv(records, 'Bittensor')).filter((r) => r['Type'] === 'Income');
    expect(bittytax.map((r) => [r['Buy Quantity'], r['Buy Asset'], Number(r['Buy Value in GBP'])])).toEqual([
      ['0.5', 'SN5-ALPHA-R1', 2],
      ['1', 'TAO', 2],
    ]);
    const koinly = readCsv(koinlyCsv(records)).filter((r) => r['Label'] === 'income');
    expect(koinly.map((r) => [r['Received Amount'], Number(r['Net Worth Amount'])])).toEqual([
      ['0.5', 2],
      ['1', 2],
    ]);
    expect(actions[1]!.liquidity).toMatchObject({
      direction: 'out',
      feeTaoRao: TAO,
      feeAlphaRao: TAO / 2n,
      refund: false,
    });
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('a position the chain refunds with no swap event is disposed of for the TAO credited and the alpha it staked', () => {
    const { actions, lines, mapping } = booked(
      [
        added(B1, '9', 10n, 10n, 10n * TAO),
        // disable_lp: its toggle names no coldkey; the collector records the TAO's Balances.Deposit.
        ev(B2, 'LiquidityRefunded', { netuid: 5, tao_rao: tao(12n) }),
      ],
      [
        [B1 - 1, { stake: { [P5]: 50n * TAO } }],
        [B1, { stake: { [P5]: 40n * TAO } }],
        [B2 - 1, { stake: { [P5]: 40n * TAO } }],
        [B2, { stake: { [P5]: 48n * TAO } }],
      ],
    );
    expect(actions.map((a) => a.kind)).toEqual(['liquidity', 'liquidity']);
    expect(lines[1]).toEqual([
      'dispose 10 liquidity:5:9 £40',
      'acquire 12 TAO £24',
      'acquire 8 alpha:5:1 £16',
    ]);
    expect(mapping.flags.filter((f) => f.kind === 'unexplained').map((f) => f.text)).toEqual([
      expect.stringContaining('closed by the chain with no swap event naming it'),
    ]);
  });

  it('modify_position: liquidity added is a disposal into the position, liquidity taken out a part disposal of it', () => {
    const modified = (block: number, delta: bigint, taoRao: bigint, alphaRao: bigint, feeTao = 0n) =>
      ev(block, 'LiquidityModified', {
        hotkey: '5H',
        netuid: 5,
        tao_rao: tao(taoRao),
        alpha_rao: tao(alphaRao),
        fee_tao_rao: tao(feeTao),
        fee_alpha_rao: '0',
        position_id: '4',
        liquidity: (delta * TAO).toString(),
      });
    const { actions, lines } = booked(
      [added(B1 - 10, '4', 10n, 10n, 10n * TAO), modified(B1, 5n, 5n, 5n), modified(B2, -6n, 6n, 6n, 1n)],
      [
        [B1 - 11, { stake: { [P5]: 50n * TAO } }],
        [B1 - 10, { stake: { [P5]: 40n * TAO } }],
        [B1, { stake: { [P5]: 35n * TAO } }],
        [B2, { stake: { [P5]: 41n * TAO } }],
      ],
    );
    expect(actions.map((a) => a.liquidity?.direction)).toEqual(['in', 'in', 'out']);
    expect(lines.slice(1)).toEqual([
      ['dispose 5 TAO £10', 'dispose 5 alpha:5:1 £10', 'acquire 5 liquidity:5:4 £20'],
      [
        'dispose 6 liquidity:5:4 £24',
        'acquire 6 TAO £12',
        'acquire 6 alpha:5:1 £12',
        `acquire 1 TAO £2 income (liquidity fees event ${B2}/${actions[2]!.events[0]!.event_index})`,
      ],
    ]);
  });

  it('a refund after a partial modification disposes of what the record shows left of the position', () => {
    const { lines } = booked(
      [
        added(B1 - 10, '5', 10n, 10n, 10n * TAO),
        ev(B1, 'LiquidityModified', {
          hotkey: '5H',
          netuid: 5,
          tao_rao: tao(4n),
          alpha_rao: tao(4n),
          fee_tao_rao: '0',
          fee_alpha_rao: '0',
          position_id: '5',
          liquidity: (-4n * TAO).toString(),
        }),
        ev(B2, 'LiquidityRefunded', { netuid: 5, tao_rao: tao(6n) }),
      ],
      [
        [B1 - 11, { stake: { [P5]: 50n * TAO } }],
        [B1 - 10, { stake: { [P5]: 40n * TAO } }],
        [B1, { stake: { [P5]: 44n * TAO } }],
        [B2, { stake: { [P5]: 50n * TAO } }],
      ],
    );
    expect(lines.at(-1)).toEqual([
      'dispose 6 liquidity:5:5 £24',
      'acquire 6 TAO £12',
      'acquire 6 alpha:5:1 £12',
    ]);
  });

  it('a refund with no position of the record open is a point to check, its TAO and alpha acquired at market value', () => {
    const { lines, mapping } = booked(
      [ev(B2, 'LiquidityRefunded', { netuid: 5, tao_rao: tao(3n) })],
      [
        [B2 - 1, { stake: { [P5]: 40n * TAO } }],
        [B2, { stake: { [P5]: 42n * TAO } }],
      ],
    );
    expect(lines).toEqual([['acquire 3 TAO £6', 'acquire 2 alpha:5:1 £4']]);
    const flags = mapping.flags.filter((f) => f.kind === 'unexplained').map((f) => f.text);
    expect(flags).toEqual([expect.stringContaining('with no position of this record open there')]);
    expect(flags[0]).toContain(`${3n * TAO} RAO of TAO`);
  });
});

describe('crowdloans', () => {
  it('the funds account is modl, bt/cloan, the id as u32 LE, then zeros', () => {
    expect(crowdloanOfAccount(crowdloanAccount(3))).toBe(3);
    expect(crowdloanOfAccount(crowdloanAccount(70_000))).toBe(70_000);
    expect(crowdloanOfAccount(ALICE)).toBeNull();
  });

  it('a contribution is TAO given for a right, not a transfer out; a refund gives the right back for the TAO', () => {
    const account = crowdloanAccount(3);
    const { actions, lines, mapping } = booked(
      [
        ev(B1, 'Transfer', { tao_rao: tao(5n), counterpart_coldkey: account, to_crowdloan: 3 }),
        ev(B1, 'CrowdloanContributed', { tao_rao: tao(5n), crowdloan_id: 3 }),
        // `refund` (the crowdloan failed): only the transfer from its funds account names the contributor.
        ev(B2, 'Transfer', {
          role: 'destination',
          tao_rao: tao(5n),
          counterpart_coldkey: account,
          from_crowdloan: 3,
        }),
      ],
      [
        [B1 - 1, { stake: { [P5]: 40n * TAO } }],
        [B1, { stake: { [P5]: 40n * TAO } }],
        [B2, { stake: { [P5]: 40n * TAO } }],
      ],
    );
    expect(actions.map((a) => a.kind)).toEqual(['crowdloan', 'crowdloan']);
    expect(lines).toEqual([
      ['dispose 5 TAO £10', 'acquire 5 crowdloan:3 £10'],
      ['dispose 5 crowdloan:3 £10', 'acquire 5 TAO £10'],
    ]);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });

  it('a withdrawal (Withdrew, the TAO back from the funds account) gives the contribution back', () => {
    const account = crowdloanAccount(4);
    const { lines, mapping } = booked(
      [
        ev(B1, 'Transfer', { tao_rao: tao(5n), counterpart_coldkey: account, to_crowdloan: 4 }),
        ev(B1, 'CrowdloanContributed', { tao_rao: tao(5n), crowdloan_id: 4 }),
        ev(B2, 'Transfer', {
          role: 'destination',
          tao_rao: tao(2n),
          counterpart_coldkey: account,
          from_crowdloan: 4,
        }),
        ev(B2, 'CrowdloanWithdrew', { tao_rao: tao(2n), crowdloan_id: 4 }),
      ],
      [
        [B1 - 1, { stake: { [P5]: 40n * TAO } }],
        [B1, { stake: { [P5]: 40n * TAO } }],
        [B2, { stake: { [P5]: 40n * TAO } }],
      ],
    );
    expect(lines[1]).toEqual(['dispose 2 crowdloan:4 £4', 'acquire 2 TAO £4']);
    expect(mapping.flags.filter((f) => f.kind !== 'opening')).toEqual([]);
  });
});
