/**
 * Which chain transfer a deposit or withdrawal of the buyer's records is: one matching over the whole file,
 * the facts first (addresses named as the buyer's, time order, quantities), nearness in time only to break a
 * tie, and a tie listed as a point to check. Transfers between one's own wallets are no disposal
 * (CRYPTO22100); a fee paid in a token on the way still is.
 */
import { describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../pipeline/tax/products/own-records/combine-own-records.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { CGT_INPUT_HEADER, pence, reportWithFiles } from './run-cgt-with-files.js';

/** Well-known development keys: valid SS58 addresses. */
const OTHER_COLDKEY = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const KRAKEN_DEPOSIT = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const EXCHANGE_HOT = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
const STRANGER = '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy';

const PLAIN = 'time_utc,type,asset,quantity,gbp_value,fee';
const d = (v: string) => new CgtDecimal(v);
const at = (iso: string) => new Date(iso);
const upload = (name: string, text: string, role: 'records' | 'addresses') => ({
  name,
  bytes: new TextEncoder().encode(text),
  role,
});

describe('pairing records with chain transfers', () => {
  it('a withdrawal is not paired with a move from another named wallet of the buyer, however near', async () => {
    // 12:00 the buyer's other coldkey sends 5 TAO (named as theirs: a move already explained); 14:00 the
    // exchange's withdrawal arrives from its own wallet. The record of the withdrawal is 12:30.
    const chain = [
      CGT_INPUT_HEADER,
      `2025-06-01T12:00:00.000Z,TAO,acquire,5,1500,,transfer-in,${OTHER_COLDKEY}`,
      `2025-06-01T14:00:00.000Z,TAO,acquire,5,1500,,transfer-in,${EXCHANGE_HOT}`,
      '2025-06-10T12:00:00.000Z,TAO,dispose,5,2200,,,',
      '2025-06-10T12:00:00.000Z,alpha:12:0,acquire,100,2200,,,',
    ].join('\n');
    const records = [
      PLAIN,
      '2025-06-01T09:00:00Z,buy,TAO,5,2000,',
      '2025-06-01T12:30:00Z,withdrawal,TAO,5,,',
    ].join('\n');
    const report = await reportWithFiles({
      chain,
      records: { 'kraken.csv': records },
      addresses: `address,label\n${OTHER_COLDKEY},my second coldkey\n`,
    });
    // The 5 TAO staked cost what was paid for them on the exchange, £2,000: no TAO acquired at market value.
    expect(report.disposals.map((x) => `${x.date} ${x.asset} ${x.quantity} ${pence(x.cost)}`)).toEqual([
      '2025-06-10 TAO 5 2000.00',
    ]);
    expect(report.pools.find((p) => p.asset === 'TAO')?.quantity).toBe('0');
  });

  it("a deposit is paired with the transfer to the exchange's named deposit address, not a nearer gift to a stranger", () => {
    const chain: CgtTransaction[] = [
      {
        at: at('2025-06-01T10:05:00Z'),
        asset: 'TAO',
        action: 'acquire',
        quantity: d('10'),
        gbp: d('3000'),
        ref: 'event 1/1',
        kind: 'transfer-in',
        counterparty: EXCHANGE_HOT,
      },
      {
        at: at('2025-06-05T12:00:00Z'),
        asset: 'TAO',
        action: 'dispose',
        quantity: d('5'),
        gbp: d('1500'),
        ref: 'event 2/1',
        kind: 'transfer-out',
        counterparty: KRAKEN_DEPOSIT,
      },
      {
        at: at('2025-06-05T15:10:00Z'),
        asset: 'TAO',
        action: 'dispose',
        quantity: d('5'),
        gbp: d('1500'),
        ref: 'event 3/1',
        kind: 'transfer-out',
        counterparty: STRANGER,
      },
    ];
    const giftWarning: PackFlag = {
      date: '2025-06-05',
      kind: 'transfer-out',
      text: 'TAO sent to a coldkey outside this order: a disposal at market value',
      ref: 'event 3/1',
    };
    const customer = readCustomerFiles([
      upload(
        'kraken.csv',
        [
          PLAIN,
          '2025-06-01T09:00:00Z,buy,TAO,10,3000,',
          '2025-06-01T10:00:00Z,withdrawal,TAO,10,,',
          '2025-06-05T15:20:00Z,deposit,TAO,5,,',
          '2025-06-06T12:00:00Z,sell,TAO,5,1800,',
        ].join('\n'),
        'records',
      ),
      upload('mine.csv', `address,label\n${KRAKEN_DEPOSIT},Kraken deposit\n`, 'addresses'),
    ]);
    const combined = combineOwnRecords({ transactions: chain, flags: [giftWarning] }, customer);
    const report = computeGains(combined.transactions);
    // The gift stays a disposal at market value, with its warning; the exchange's deposit is the own move.
    expect(
      report.disposals.map(
        (x) => `${x.date} ${x.quantity.toFixed()} ${x.proceeds.toFixed(2)} ${x.cost.toFixed(2)}`,
      ),
    ).toEqual(['2025-06-05 5 1500.00 1500.00', '2025-06-06 5 1800.00 1500.00']);
    expect(combined.flags).toContainEqual(giftWarning);
    expect(combined.ownTransfers.map((m) => `${m.chainRef} ${m.record?.line ?? '-'}`).sort()).toEqual([
      'event 1/1 3',
      'event 2/1 4',
    ]);
  });

  it('two transfers the facts cannot tell apart: the nearer is taken and the choice is a point to check', async () => {
    const chain = [
      CGT_INPUT_HEADER,
      `2025-06-01T12:10:00.000Z,TAO,acquire,5,1500,,transfer-in,${EXCHANGE_HOT}`,
      `2025-06-01T13:00:00.000Z,TAO,acquire,5,1500,,transfer-in,${STRANGER}`,
    ].join('\n');
    const records = [
      PLAIN,
      '2025-06-01T09:00:00Z,buy,TAO,5,2000,',
      '2025-06-01T12:00:00Z,withdrawal,TAO,5,,',
    ].join('\n');
    const report = await reportWithFiles({ chain, records: { 'kraken.csv': records } });
    const points = (report.points_to_check ?? []).filter((p) => p.includes('fits it as well'));
    expect(points).toHaveLength(1);
    expect(points[0]).toContain('kraken.csv line 3');
    expect(points[0]).toContain('line 2');
    expect(points[0]).toContain('line 3 (2025-06-01T13:00Z');
  });

  it('a fee paid in alpha inside a transfer to a named own wallet stays a disposal of that alpha', () => {
    const chain: CgtTransaction[] = [
      {
        at: at('2025-06-01T22:00:00Z'),
        asset: 'alpha:12:0',
        action: 'acquire',
        quantity: d('200'),
        gbp: d('400'),
        ref: 'income 2025-06-01',
        kind: 'income',
      },
      {
        at: at('2025-06-03T12:00:00Z'),
        asset: 'alpha:12:0',
        action: 'dispose',
        quantity: d('100'),
        gbp: d('300'),
        ref: 'event 9/2',
        kind: 'transfer-out',
        counterparty: OTHER_COLDKEY,
        paidAsFee: { quantity: d('0.5'), gbp: d('1.5') },
      },
    ];
    const customer = readCustomerFiles([
      upload('mine.csv', `address,label\n${OTHER_COLDKEY},my second coldkey\n`, 'addresses'),
    ]);
    const combined = combineOwnRecords({ transactions: chain, flags: [] }, customer);
    const report = computeGains(combined.transactions);
    expect(
      report.disposals.map(
        (x) => `${x.date} ${x.quantity.toFixed()} ${x.proceeds.toFixed(2)} ${x.cost.toFixed(2)}`,
      ),
    ).toEqual(['2025-06-03 0.5 1.50 1.00']);
    expect(combined.ownTransfers.map((m) => `${m.direction} ${m.quantity.toFixed()}`)).toEqual(['out 99.5']);
  });
});
