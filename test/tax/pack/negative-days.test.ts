/**
 * Days when a position's stake falls with no event to explain it (a slash, a deregistration): the loss is
 * listed and becomes a disposal for nothing, never netted against income of other positions, and it is a
 * loss of the asset the stake was in (a netuid registered again that day is a new asset).
 */
import { describe, expect, it } from 'vitest';
import { computeGains } from '../../../pipeline/tax/cgt/compute-gains.js';
import { cgtTransactions, type LedgerEvent } from '../../../pipeline/tax/cgt-transactions.js';
import { GbpPrices } from '../../../pipeline/tax/gbp-prices.js';
import { incomeLedger } from '../../../pipeline/tax/income-ledger.js';
import { incomeSummary } from '../../../pipeline/tax/pack/pack-summary.js';
import { positionId } from '../../../pipeline/tax/stake-at-blocks.js';
import { dayOf, stakesOf, TAO, timeOfBlock } from './ledger-cases.js';

const COLDKEY = '5Customer';
// £2 per TAO at every day's end of January 2026 (the quote dated the next UTC day).
const PRICES = new GbpPrices(
  Array.from({ length: 31 }, (_, i) => ({
    date: `2026-01-${String(i + 1).padStart(2, '0')}`,
    usd: null,
    gbp: '2',
    source: 'test',
  })),
);
const plain = (tx: {
  asset: string;
  action: string;
  quantity: { toFixed(): string };
  gbp: { toFixed(): string };
}) => `${tx.action} ${tx.quantity.toFixed()} ${tx.asset} £${tx.gbp.toFixed()}`;

describe('a slashed position beside a rewarded one on the same subnet', () => {
  const rewarded = { coldkey: COLDKEY, hotkey: '5Good', netuid: 5 };
  const slashed = { coldkey: COLDKEY, hotkey: '5Slashed', netuid: 5 };
  const [opening, day] = [dayOf(0), dayOf(1)];
  const stakes = stakesOf({
    [opening.block]: { stake: { [positionId(rewarded)]: 100n * TAO, [positionId(slashed)]: 100n * TAO } },
    [day.block]: { stake: { [positionId(rewarded)]: 110n * TAO, [positionId(slashed)]: 97n * TAO } },
  });
  const positions = [rewarded, slashed];
  const income = incomeLedger(positions, opening, [day], stakes, new Map(), PRICES);

  it('lists both days as they are: +10 and -3 alpha', () => {
    expect(income.map((row) => [row.position.hotkey, row.alphaRao])).toEqual([
      ['5Good', 10n * TAO],
      ['5Slashed', -3n * TAO],
    ]);
  });

  it('counts the 10 alpha received as income, not 7', () => {
    const summary = incomeSummary(income, 2025, new Map());
    expect(summary.total.gbp.toFixed(2)).toBe('20.00');
    expect(summary.total.taoRao).toBe(10n * TAO);
    expect(summary.total.negativeDays).toBe(1);
    expect(summary.bySubnet[0]!.gbp.toFixed(2)).toBe('20.00');
  });

  it('acquires the 10 alpha at their value and disposes of the 3 lost for nothing', () => {
    const mapping = cgtTransactions({
      coldkeys: new Set([COLDKEY]),
      opening,
      events: [],
      income,
      days: [day],
      positions,
      stakes,
      prices: PRICES,
    });
    expect(
      mapping.transactions.filter((tx) => /^(income|stake lost) /.test(tx.ref ?? '')).map(plain),
    ).toEqual(['acquire 10 alpha:5:1 £20', 'dispose 3 alpha:5:1 £0']);
    const gains = computeGains(mapping.transactions);
    expect(
      gains.disposals.map((d) => [d.date, d.quantity.toFixed(), d.proceeds.toFixed(), d.gain.toFixed()]),
    ).toEqual([[day.date, '3', '0', '-6']]);
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

  it('disposes of the old asset and leaves no pool of it behind', () => {
    const mapping = cgtTransactions({
      coldkeys: new Set([COLDKEY]),
      opening,
      events: [stake],
      income,
      days: [day],
      positions: [position],
      stakes,
      prices: PRICES,
    });
    expect(mapping.flags.filter((flag) => flag.kind === 'unexplained')).toEqual([]);
    const gains = computeGains(mapping.transactions);
    const pools = new Map(gains.pools.map((pool) => [pool.asset, pool.quantity.toFixed()]));
    expect(pools.get('alpha:7:1')).toBe('0');
    expect(pools.get('alpha:7:200')).toBe('21');
    expect(gains.disposals.filter((d) => d.asset === 'alpha:7:1').map((d) => d.gain.toFixed())).toEqual([
      '-100',
    ]);
  });
});
