/**
 * An action that gives and gets back the same asset books what did not come back (or came back beyond what
 * was given) from the chain's own figures: the fee of a stake on or unstake from root (once, as a fee: a
 * disposal at its value), the RAO a move between hotkeys on one subnet or a key swap's share arithmetic
 * loses. Without it the pools hold more than the chain (the daily reconciliation's differences).
 */
import { describe, expect, it } from 'vitest';
import {
  economicAction,
  groupEvents,
} from '../../../../pipeline/tax/chain-record/actions/economic-action.js';
import type { LedgerEvent } from '../../../../pipeline/tax/chain-record/ledger-event.js';
import { type PositionRef, positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { JANUARY_PRICES } from '../../products/pack/january-prices.js';
import { type BlockState, dayOf, stakesOf, TAO, timeOfBlock } from '../../products/pack/ledger-cases.js';

const ALICE = '5Alice';
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

/** The action's transactions as `dispose 0.00005 TAO £0`. */
function booked(events: LedgerEvent[], positions: PositionRef[], before: BlockState, after: BlockState) {
  const stakes = stakesOf({ [opening.block]: before, [BLOCK - 1]: before, [BLOCK]: after });
  const mapping = cgtTransactions({
    coldkeys: new Set([ALICE]),
    opening,
    actions: groupEvents(events).map((group) => economicAction(group, new Set([ALICE]))),
    income: [],
    days: [],
    positions,
    stakes,
    prices: JANUARY_PRICES,
  });
  return mapping.events.flatMap((e) =>
    e.transactions.map((tx) => `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}`),
  );
}

describe('given and got back in one action', () => {
  const root = { coldkey: ALICE, hotkey: '5H', netuid: 0 };

  it('a stake on root: its fee, paid from the TAO staked, is a disposal of that TAO at its market value, once', () => {
    // 5 TAO staked, the fee of 50,000 RAO stated by the six-field StakeAdded: root stake rises by the rest.
    const lines = booked(
      [
        event('StakeAdded', 1, {
          hotkey: '5H',
          netuid: 0,
          tao_rao: (5n * TAO).toString(),
          alpha_rao: (5n * TAO - 50_000n).toString(),
          fee_rao: '50000',
        }),
      ],
      [root],
      { stake: { [positionId(root)]: 0n }, free: { [ALICE]: 10n * TAO } },
      { stake: { [positionId(root)]: 5n * TAO - 50_000n }, free: { [ALICE]: 5n * TAO } },
    );
    // Tokens given for a service (the staking fee): its value, not nothing, and not also a residue.
    expect(lines).toEqual(['dispose 0.00005 TAO £0.0001']);
  });

  it('an unstake from root: its fee, kept from the TAO received, likewise, once', () => {
    const lines = booked(
      [
        event('StakeRemoved', 1, {
          hotkey: '5H',
          netuid: 0,
          tao_rao: (2n * TAO - 50_000n).toString(),
          alpha_rao: (2n * TAO).toString(),
          fee_rao: '50000',
        }),
      ],
      [root],
      { stake: { [positionId(root)]: 5n * TAO }, free: { [ALICE]: 0n } },
      { stake: { [positionId(root)]: 3n * TAO }, free: { [ALICE]: 2n * TAO - 50_000n } },
    );
    // Tokens given for a service (the staking fee): its value, not nothing, and not also a residue.
    expect(lines).toEqual(['dispose 0.00005 TAO £0.0001']);
  });

  it('a move between hotkeys on one subnet: the RAO its share arithmetic lost is disposed of for nothing', () => {
    const from = { coldkey: ALICE, hotkey: '5H1', netuid: 5 };
    const to = { coldkey: ALICE, hotkey: '5H2', netuid: 5 };
    const lines = booked(
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
      { stake: { [positionId(from)]: 5n * TAO, [positionId(to)]: 5n * TAO - 202n } },
    );
    expect(lines).toEqual(['dispose 0.000000202 alpha:5:1 £0']);
  });

  it('an exact move books nothing', () => {
    const from = { coldkey: ALICE, hotkey: '5H1', netuid: 5 };
    const to = { coldkey: ALICE, hotkey: '5H2', netuid: 5 };
    const lines = booked(
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
  });
});
