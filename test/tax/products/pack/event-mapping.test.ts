/**
 * Staking events as capital gains transactions, on small hand-made chain states (pools at 1 TAO per alpha,
 * TAO at £2): what each event disposes of and acquires, and what is no disposal at all.
 */
import { describe, expect, it } from 'vitest';
import {
  economicAction,
  groupEvents,
} from '../../../../pipeline/tax/chain-record/actions/economic-action.js';
import type { LedgerEvent } from '../../../../pipeline/tax/chain-record/ledger-event.js';
import { type PositionRef, positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { JANUARY_PRICES } from './january-prices.js';
import { type BlockState, dayOf, stakesOf, TAO, timeOfBlock } from './ledger-cases.js';

const ALICE = '5Alice';
const BOB = '5Bob';
const PRICES = JANUARY_PRICES;
const opening = dayOf(0);
const BLOCK = opening.block + 50;

function event(kind: LedgerEvent['kind'], index: number, fields: Partial<LedgerEvent>): LedgerEvent {
  return {
    coldkey: ALICE,
    block: BLOCK,
    event_index: index,
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

/** The events' transactions, written `dispose 5 alpha:5:1 £10`, for positions with stake before and after. */
function mapped(
  events: LedgerEvent[],
  positions: PositionRef[],
  before: BlockState,
  after: BlockState,
  coldkeys = [ALICE],
) {
  const stakes = stakesOf({ [opening.block]: before, [BLOCK - 1]: before, [BLOCK]: after });
  const mapping = cgtTransactions({
    coldkeys: new Set(coldkeys),
    opening,
    actions: groupEvents(events).map((group) => economicAction(group, new Set(coldkeys))),
    income: [],
    days: [],
    positions,
    stakes,
    prices: PRICES,
  });
  return {
    lines: mapping.events.flatMap((e) =>
      e.transactions.map((tx) => `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}`),
    ),
    mapping,
  };
}

describe('several events on one position in one block', () => {
  const p5 = { coldkey: ALICE, hotkey: '5H', netuid: 5 };
  const p6 = { coldkey: ALICE, hotkey: '5H', netuid: 6 };

  it('gives a move its own amount when a stake with a known amount follows it on the same position', () => {
    // 5 alpha moved from subnet 5 to subnet 6, then 10 TAO staked into subnet 5: subnet 5 goes 100 → 105.
    const { lines } = mapped(
      [
        event('StakeMoved', 1, {
          hotkey: '5H',
          netuid: 5,
          tao_rao: (5n * TAO).toString(),
          counterpart_coldkey: ALICE,
          counterpart_hotkey: '5H',
          counterpart_netuid: 6,
        }),
        event('StakeAdded', 2, {
          hotkey: '5H',
          netuid: 5,
          tao_rao: (10n * TAO).toString(),
          alpha_rao: (10n * TAO).toString(),
          fee_rao: '0',
        }),
      ],
      [p5, p6],
      { stake: { [positionId(p5)]: 100n * TAO, [positionId(p6)]: 0n }, free: { [ALICE]: 50n * TAO } },
      { stake: { [positionId(p5)]: 105n * TAO, [positionId(p6)]: 5n * TAO }, free: { [ALICE]: 40n * TAO } },
    );
    expect(lines).toEqual([
      'dispose 5 alpha:5:1 £10',
      'acquire 5 alpha:6:1 £10',
      'dispose 10 TAO £20',
      'acquire 10 alpha:5:1 £20',
    ]);
  });
});

describe('what is not a disposal', () => {
  it('a move between hotkeys on one subnet', () => {
    const from = { coldkey: ALICE, hotkey: '5H1', netuid: 5 };
    const to = { coldkey: ALICE, hotkey: '5H2', netuid: 5 };
    const { lines, mapping } = mapped(
      [
        event('StakeMoved', 1, {
          hotkey: '5H1',
          netuid: 5,
          tao_rao: (5n * TAO).toString(),
          counterpart_coldkey: ALICE,
          counterpart_hotkey: '5H2',
          counterpart_netuid: 5,
        }),
      ],
      [from, to],
      { stake: { [positionId(from)]: 10n * TAO, [positionId(to)]: 0n } },
      { stake: { [positionId(from)]: 5n * TAO, [positionId(to)]: 5n * TAO } },
    );
    expect(lines).toEqual([]);
    expect(mapping.events[0]!.treatment).toBe('moved between hotkeys on one subnet: not a disposal');
  });

  it('stake on root', () => {
    const root = { coldkey: ALICE, hotkey: '5H', netuid: 0 };
    const { lines } = mapped(
      [event('StakeAdded', 1, { hotkey: '5H', netuid: 0, tao_rao: (5n * TAO).toString(), fee_rao: '0' })],
      [root],
      { stake: { [positionId(root)]: 0n }, free: { [ALICE]: 10n * TAO } },
      { stake: { [positionId(root)]: 5n * TAO }, free: { [ALICE]: 5n * TAO } },
    );
    expect(lines).toEqual([]);
  });

  it('stake sent to another coldkey of the order, on the same subnet', () => {
    const mine = { coldkey: ALICE, hotkey: '5H', netuid: 5 };
    const theirs = { coldkey: BOB, hotkey: '5H', netuid: 5 };
    const { lines, mapping } = mapped(
      [
        event('StakeTransferred', 1, {
          hotkey: '5H',
          netuid: 5,
          tao_rao: (4n * TAO).toString(),
          counterpart_coldkey: BOB,
          counterpart_hotkey: '5H',
          counterpart_netuid: 5,
        }),
      ],
      [mine, theirs],
      { stake: { [positionId(mine)]: 10n * TAO, [positionId(theirs)]: 0n } },
      { stake: { [positionId(mine)]: 6n * TAO, [positionId(theirs)]: 4n * TAO } },
      [ALICE, BOB],
    );
    expect(lines).toEqual([]);
    expect(mapping.flags.filter((flag) => flag.kind.startsWith('transfer'))).toEqual([]);
  });
});

describe('stake sent outside the order', () => {
  it('is a disposal at its market value, flagged', () => {
    const mine = { coldkey: ALICE, hotkey: '5H', netuid: 5 };
    const { lines, mapping } = mapped(
      [
        event('StakeTransferred', 1, {
          hotkey: '5H',
          netuid: 5,
          tao_rao: (4n * TAO).toString(),
          counterpart_coldkey: '5Stranger',
          counterpart_hotkey: '5H',
          counterpart_netuid: 5,
        }),
      ],
      [mine],
      { stake: { [positionId(mine)]: 10n * TAO } },
      { stake: { [positionId(mine)]: 6n * TAO } },
    );
    expect(lines).toEqual(['dispose 4 alpha:5:1 £8']);
    expect(mapping.flags.map((flag) => flag.kind)).toContain('transfer-out');
  });
});
