/**
 * The points to check as a buyer settles them: the transfers with one address are one point (how many, the
 * days, the tokens and pounds, "mark it as yours"), an address the buyer named with no record of theirs is
 * one point naming the export to add, an unexplained reconciliation difference one point per token; the
 * list runs from the most pounds at stake, and points.csv has the same rows in the same order.
 */
import { describe, expect, it } from 'vitest';
import type { TaxYearLedger } from '../../../../pipeline/tax/products/compute-tax-year.js';
import { packPoints } from '../../../../pipeline/tax/products/pack/pack-points.js';
import { pointsCsv } from '../../../../pipeline/tax/products/pack/points-csv.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { readCsv } from './read-pack-csv.js';

const FRIEND = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const SHOP = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
const BINANCE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

const d = (value: string) => new CgtDecimal(value);

/** A transfer across the order's edge, its flag and its transaction (as the chain record books them). */
function transfer(
  block: number,
  date: string,
  to: string,
  tao: string,
  gbp: string,
  direction: 'out' | 'in' = 'out',
): { flag: PackFlag; tx: CgtTransaction } {
  const ref = `event ${block}/2`;
  return {
    flag: {
      date,
      kind: direction === 'out' ? 'transfer-out' : 'transfer-in',
      text: `Transfer ${block}/2: TAO ${direction === 'out' ? 'sent to' : 'received from'} ${to} (outside this order), taken at its market value.`,
      ref,
    },
    tx: {
      at: new Date(`${date}T12:00:00Z`),
      asset: 'TAO',
      action: direction === 'out' ? 'dispose' : 'acquire',
      quantity: d(tao),
      gbp: d(gbp),
      ref,
      kind: direction === 'out' ? 'transfer-out' : 'transfer-in',
      counterparty: to,
    },
  };
}

function ledgerOf(parts: {
  transfers: ReturnType<typeof transfer>[];
  other?: PackFlag[];
  ownTransfers?: TaxYearLedger['combined']['ownTransfers'];
  unexplained?: Partial<TaxYearLedger['reconciliation']['unexplained'][number]>[];
}): TaxYearLedger {
  // Only what the points read of a ledger: the year's flags and days, the chain's transfers, the own moves
  // and the reconciliation's unexplained rows.
  return {
    opening: { date: '2025-04-05' },
    days: [{ date: '2025-04-06' }, { date: '2026-04-05' }],
    mapping: { flags: [...parts.transfers.map((t) => t.flag), ...(parts.other ?? [])] },
    chainTransactions: parts.transfers.map((t) => t.tx),
    combined: { ownTransfers: parts.ownTransfers ?? [] },
    reconciliation: { unexplained: parts.unexplained ?? [] },
  } as unknown as TaxYearLedger;
}

describe('points to check', () => {
  const ledger = ledgerOf({
    transfers: [
      transfer(100, '2025-05-01', FRIEND, '1', '300'),
      transfer(200, '2025-06-01', FRIEND, '2.5', '700'),
      transfer(300, '2025-06-01', FRIEND, '0.5', '150', 'in'),
      transfer(400, '2025-07-01', SHOP, '10', '3000'),
    ],
    other: [
      {
        date: '2025-04-05',
        kind: 'opening',
        text: 'The record opens at the end of 2025-04-05: holdings at market value.',
      },
    ],
    ownTransfers: [
      {
        chainRef: 'event 500/2',
        at: new Date('2025-08-01T12:00:00Z'),
        asset: 'TAO',
        quantity: d('4'),
        direction: 'out',
        counterparty: BINANCE,
        label: 'Binance deposit',
        record: null,
      },
      {
        chainRef: 'event 600/2',
        at: new Date('2025-08-02T12:00:00Z'),
        asset: 'TAO',
        quantity: d('1'),
        direction: 'out',
        counterparty: SHOP.replace('5FL', '5FM'),
        label: 'my cold wallet',
        record: null,
      },
    ],
    unexplained: [
      {
        date: '2025-09-01',
        block: 900,
        asset: 'TAO',
        differenceRao: 2_000_000_000n,
        differenceGbp: d('600'),
      },
      {
        date: '2025-09-02',
        block: 924,
        asset: 'TAO',
        differenceRao: -500_000_000n,
        differenceGbp: d('-150'),
      },
    ],
  });
  const points = packPoints(ledger);

  it('makes one point of all the transfers with one address, with its count, days, tokens, pounds and action', () => {
    const friend = points.find((p) => p.counterparty === FRIEND)!;
    expect(friend.kind).toBe('address');
    expect(friend.count).toBe(3);
    expect(friend.dates).toEqual(['2025-05-01', '2025-06-01']);
    expect(friend.sent.map((a) => [a.asset, a.quantity.toFixed(), a.gbp.toFixed()])).toEqual([
      ['TAO', '3.5', '1000'],
    ]);
    expect(friend.received.map((a) => [a.asset, a.quantity.toFixed()])).toEqual([['TAO', '0.5']]);
    expect(friend.gbp?.toFixed()).toBe('1150');
    expect(friend.action).toMatch(/Mark it as yours on the order page/);
    expect(points.filter((p) => p.kind === 'address')).toHaveLength(2);
  });

  it('names the export that settles transfers to an exchange address named as yours with no record of it', () => {
    // Another wallet of the buyer's raises none: what it got stays in the pools, theirs.
    expect(points.filter((p) => p.kind === 'missing-records')).toHaveLength(1);
    const missing = points.find((p) => p.kind === 'missing-records')!;
    expect(missing.counterparty).toBe(BINANCE);
    expect(missing.label).toBe('Binance deposit');
    expect(missing.action).toBe(
      'Add your Binance export (its transaction history, as downloaded) on the order page.',
    );
  });

  it('makes one point of a token the chain holds differently, with what to look for', () => {
    const tao = points.filter((p) => p.kind === 'reconciliation');
    expect(tao).toHaveLength(1);
    expect(tao[0]!.dates).toEqual(['2025-09-01', '2025-09-02']);
    expect(tao[0]!.gbp?.toFixed()).toBe('750');
    expect(tao[0]!.action).toMatch(/block 900; block 924/);
  });

  it('orders them by pounds at stake, points with no single figure last, and points.csv says the same', () => {
    expect(points.map((p) => p.kind)).toEqual([
      'address',
      'address',
      'reconciliation',
      'missing-records',
      'opening',
    ]);
    expect(points.map((p) => p.counterparty).slice(0, 2)).toEqual([SHOP, FRIEND]);
    const rows = readCsv(pointsCsv(points));
    expect(rows.map((row) => [row['rank'], row['kind'], row['counterparty'], row['gbp']])).toEqual([
      ['1', 'address', SHOP, '3000.00000000'],
      ['2', 'address', FRIEND, '1150.00000000'],
      ['3', 'reconciliation', '', '750.00000000'],
      ['4', 'missing-records', BINANCE, ''],
      ['5', 'opening', '', ''],
    ]);
    expect(rows.map((row) => [row['point'], row['action']])).toEqual(points.map((p) => [p.text, p.action]));
    expect(rows[1]!['sent']).toBe('3.5 TAO');
    expect(rows[1]!['count']).toBe('3');
    expect(rows.every((row) => row['action'] !== '')).toBe(true);
  });
});
