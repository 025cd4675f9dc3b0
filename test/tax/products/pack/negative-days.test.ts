/**
 * Days when a position's stake falls with no event of the record to explain it. Issue 25's rules: a coldkey's
 * rises and falls on one subnet and UK day are netted across hotkeys before anything is income (a hotkey swap
 * of the validator moves its nominators' stake with no event of theirs): the matched part is a move, neither
 * income nor a disposal. A fall nothing matches is listed for the reader, never booked as a disposal for
 * nothing; a subnet that ended without paying leaves its pool for a negligible value claim (CRYPTO22500). A
 * netuid registered again is a new asset.
 */
import { describe, expect, it } from 'vitest';
import {
  economicAction,
  groupEvents,
} from '../../../../pipeline/tax/chain-record/actions/economic-action.js';
import type { LedgerEvent } from '../../../../pipeline/tax/chain-record/ledger-event.js';
import { positionId } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { incomeSummary } from '../../../../pipeline/tax/products/pack/pack-summary.js';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { incomeLedger, netAcrossHotkeys } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { JANUARY_PRICES } from './january-prices.js';
import { dayOf, stakesOf, TAO, timeOfBlock } from './ledger-cases.js';

const COLDKEY = '5Customer';
const PRICES = JANUARY_PRICES;
const plain = (tx: {
  asset: string;
  action: string;
  quantity: { toFixed(): string };
  gbp: { toFixed(): string };
}) => `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}`;

describe('a fall on one hotkey beside a rise on another, same coldkey, subnet and day', () => {
  const risen = { coldkey: COLDKEY, hotkey: '5New', netuid: 5 };
  const fallen = { coldkey: COLDKEY, hotkey: '5Old', netuid: 5 };
  const [opening, day] = [dayOf(0), dayOf(1)];
  const stakes = stakesOf({
    [opening.block]: { stake: { [positionId(risen)]: 100n * TAO, [positionId(fallen)]: 100n * TAO } },
    [day.block]: { stake: { [positionId(risen)]: 110n * TAO, [positionId(fallen)]: 97n * TAO } },
  });
  const positions = [risen, fallen];
  const raw = incomeLedger(positions, opening, [day], stakes, new Map(), PRICES);
  const { rows: income, moves } = netAcrossHotkeys(raw);

  it('measures +10 and -3 alpha, then nets them: 3 moved, 7 received, shown on the key the day began with', () => {
    expect(raw.map((row) => [row.position.hotkey, row.alphaRao])).toEqual([
      ['5New', 10n * TAO],
      ['5Old', -3n * TAO],
    ]);
    expect(income.map((row) => [row.position.hotkey, row.alphaRao])).toEqual([['5Old', 7n * TAO]]);
    expect(moves.map((m) => [m.from, m.to, m.alphaRao])).toEqual([
      [[`${COLDKEY}/5Old`], [`${COLDKEY}/5New`], 3n * TAO],
    ]);
  });

  it('counts 7 alpha as income', () => {
    const summary = incomeSummary(income, 2025, new Map());
    expect(summary.total.gbp.toFixed(2)).toBe('14.00');
    expect(summary.total.taoRao).toBe(7n * TAO);
    expect(summary.total.negativeDays).toBe(0);
  });

  it('acquires the 7 alpha at their value, disposes of nothing, and names the move', () => {
    const mapping = cgtTransactions({
      coldkeys: new Set([COLDKEY]),
      opening,
      actions: [],
      income,
      moves,
      days: [day],
      positions,
      stakes,
      prices: PRICES,
    });
    expect(mapping.transactions.filter((tx) => /^income /.test(tx.ref ?? '')).map(plain)).toEqual([
      'acquire 7 alpha:5:1 £14',
    ]);
    expect(computeGains(mapping.transactions).disposals).toEqual([]);
    expect(mapping.flags.filter((f) => f.kind === 'moved').map((f) => f.text)).toEqual([
      expect.stringContaining(
        `left ${COLDKEY}/5Old and reached ${COLDKEY}/5New (coldkey/hotkey) the same day: a move`,
      ),
    ]);
  });
});

describe('a fall that nothing explains', () => {
  const only = { coldkey: COLDKEY, hotkey: '5Only', netuid: 5 };
  const [opening, day] = [dayOf(0), dayOf(1)];
  const stakes = stakesOf({
    [opening.block]: { stake: { [positionId(only)]: 100n * TAO } },
    [day.block]: { stake: { [positionId(only)]: 97n * TAO } },
  });
  const { rows: income } = netAcrossHotkeys(incomeLedger([only], opening, [day], stakes, new Map(), PRICES));

  it('is listed for the reader, never booked as a disposal for nothing', () => {
    const mapping = cgtTransactions({
      coldkeys: new Set([COLDKEY]),
      opening,
      actions: [],
      income,
      days: [day],
      positions: [only],
      stakes,
      prices: PRICES,
    });
    expect(computeGains(mapping.transactions).disposals).toEqual([]);
    const flags = mapping.flags.filter((f) => f.kind === 'unexplained');
    expect(flags.map((f) => f.text)).toEqual([expect.stringContaining('fell by 3 with no event')]);
    expect(mapping.flags.map((f) => f.text).join(' ')).not.toMatch(/slash/i);
  });
});

describe('a netuid deregistered and registered again on one day', () => {
  const position = { coldkey: COLDKEY, hotkey: '5Validator', netuid: 7 };
  const id = positionId(position);
  const [opening, day] = [dayOf(0), dayOf(1)];
  // The old subnet (registered at block 1) is gone by block 200; the new one is registered at block 200.
  // At block 250 the customer stakes 20 TAO into the new subnet; by the day's end it has earned 1 alpha.
  const stakeBlock = opening.block + 106;
  const fresh = { registeredAt: 200 };
  const stakes = stakesOf({
    [opening.block]: { stake: { [id]: 50n * TAO }, free: { [COLDKEY]: 100n * TAO } },
    [stakeBlock - 1]: { stake: { [id]: 0n }, subnets: { 7: fresh } },
    [stakeBlock]: { stake: { [id]: 20n * TAO }, subnets: { 7: fresh } },
    [day.block]: { stake: { [id]: 21n * TAO }, subnets: { 7: fresh } },
  });
  const stake: LedgerEvent = {
    coldkey: COLDKEY,
    block: stakeBlock,
    event_index: 3,
    time: timeOfBlock(stakeBlock).toISOString(),
    kind: 'StakeAdded',
    role: 'origin',
    hotkey: position.hotkey,
    netuid: 7,
    tao_rao: (20n * TAO).toString(),
    alpha_rao: (20n * TAO).toString(),
    fee_rao: '0',
    counterpart_coldkey: null,
    counterpart_hotkey: null,
    counterpart_netuid: null,
  };
  const income = incomeLedger([position], opening, [day], stakes, new Map([[id, [stakeBlock]]]), PRICES);

  it('loses the old subnet’s 50 alpha and receives 1 alpha of the new one', () => {
    expect(income.map((row) => [row.registeredAt, row.alphaRao])).toEqual([
      [1, -50n * TAO],
      [200, 1n * TAO],
    ]);
  });

  it('books no disposal for the old asset, keeps its pool and explains the negligible value claim', () => {
    const order = new Set([COLDKEY]);
    const mapping = cgtTransactions({
      coldkeys: order,
      opening,
      actions: groupEvents([stake]).map((group) => economicAction(group, order)),
      income,
      days: [day],
      positions: [position],
      stakes,
      prices: PRICES,
    });
    expect(mapping.flags.filter((flag) => flag.kind === 'unexplained')).toEqual([]);
    expect(mapping.flags.filter((flag) => flag.kind === 'ended').map((f) => f.text)).toEqual([
      expect.stringMatching(
        /subnet 7 \(registered at block 1\) ended and the chain paid nothing.*CRYPTO22500/,
      ),
    ]);
    const gains = computeGains(mapping.transactions);
    const pools = new Map(gains.pools.map((pool) => [pool.asset, pool.quantity.toFixed()]));
    expect(pools.get('alpha:7:1')).toBe('50');
    expect(pools.get('alpha:7:200')).toBe('21');
    expect(gains.disposals.filter((d) => d.asset === 'alpha:7:1')).toEqual([]);
  });
});
