/**
 * The pack values the buyer's exchange rows that give no pounds (a reward, a trade of TAO against dollars,
 * a withdrawal fee in TAO) at the TAO/GBP rate of their UK day, and a trade against USDT at USDT's: the published quote dated the day after,
 * the one its own staking income of that day is valued at. The demo coldkey's record on the sandbox,
 * published by the real pipeline, with a Kraken ledger of the buyer's; the expected pounds are worked here
 * from the published prices.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTaxYearLedger } from '../../../../../pipeline/tax/products/compute-tax-year.js';
import { readCustomerFiles } from '../../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { openPackChain, type PackChain } from '../../../../../pipeline/tax/products/pack/pack-chain.js';
import { type PackInputs, readPackInputs } from '../../../../../pipeline/tax/products/pack/pack-inputs.js';
import { addDays } from '../../../../../pipeline/time/utc-day.js';
import { sharedPackWorld } from '../../../../support/shared-pack-world.js';
import type { PackWorld } from '../../pack/pack-world.js';

let world: PackWorld;
let chain: PackChain;
let inputs: PackInputs;

const order = () => ({
  id: 'ord_day_rate',
  sku: 'tax-pack',
  packName: 'UK staking tax pack',
  taxYear: '2025/26',
  coldkeys: [world.devnet.demoColdkey],
  paidAt: new Date('2026-01-20T09:00:00Z'),
});

const q = (cells: string[]) => cells.map((c) => `"${c}"`).join(',');
const KRAKEN = [
  '"txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance"',
  // 2 TAO bought for 700 dollars on 5 January, a reward on 6 January, a withdrawal with a TAO fee on 7 January.
  q([
    'L1',
    'T1',
    '2026-01-05 10:00:00',
    'trade',
    '',
    'currency',
    'ZUSD',
    'spot / main',
    '-700.0000',
    '0',
    '0',
  ]),
  q([
    'L2',
    'T1',
    '2026-01-05 10:00:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '2.0000000000',
    '0',
    '2',
  ]),
  q([
    'L3',
    'R1',
    '2026-01-06 20:00:00',
    'earn',
    'reward',
    'currency',
    'TAO',
    'earn / bonded',
    '0.0125000000',
    '0',
    '2.0125',
  ]),
  q([
    'L4',
    'W1',
    '2026-01-07 12:00:00',
    'withdrawal',
    '',
    'currency',
    'TAO',
    'spot / main',
    '-1.0000000000',
    '0.0010000000',
    '1.0115',
  ]),
].join('\n');

beforeAll(async () => {
  world = await sharedPackWorld({ genesis: new Date('2026-01-01T00:00:00Z'), historyDays: 16 });
  chain = openPackChain(world.devnet.url);
  inputs = await readPackInputs(world.store, order());
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

describe('exchange rows without pounds in a pack', () => {
  it('are valued at the TAO/GBP rate of their UK day, the rate of that day’s income', async () => {
    const customer = readCustomerFiles([
      { name: 'kraken.csv', bytes: new TextEncoder().encode(KRAKEN), role: 'records' },
    ]);
    const ledger = await computeTaxYearLedger(
      inputs,
      order().coldkeys,
      await chain.reader(),
      undefined,
      customer,
    );
    // In winter UK day D ends at the quote dated D + 1.
    const rate = (day: string) => new Decimal(inputs.fiat.find((f) => f.date === addDays(day, 1))!.gbp!);
    const byLine = new Map(ledger.customer.records.map((r) => [r.line, r]));
    expect(byLine.get(2)!.gbp!.toFixed()).toBe(rate('2026-01-05').times(2).toFixed());
    expect(byLine.get(4)!.gbp!.toFixed()).toBe(rate('2026-01-06').times('0.0125').toFixed());
    expect(byLine.get(5)!.fee!.gbp.toFixed()).toBe(rate('2026-01-07').times('0.001').toFixed());
    // The same rate as the chain's own income of that day.
    const income = ledger.income.find((row) => row.date === '2026-01-06');
    expect(income?.gbpPrice.gbp.toFixed()).toBe(rate('2026-01-06').toFixed());
    // The acquisition the trade books costs the same pounds.
    const bought = ledger.combined.transactions.find(
      (tx) => ledger.combined.recordOf.get(tx)?.line === 2 && tx.action === 'acquire',
    );
    expect(bought?.gbp.toFixed()).toBe(rate('2026-01-05').times(2).toFixed());
    expect(ledger.mapping.flags.map((f) => f.text)).toContainEqual(
      expect.stringMatching(
        /^kraken\.csv: 3 row\(s\) of tax year 2025\/26 \(lines 2, 4, 5\) have no value in pounds/,
      ),
    );
  });

  it('values a trade of TAO for USDT at the published USDT rate of its UK day, and USDT paid in at its market value', async () => {
    // The published prices carry USDT's daily quotes beside TAO's (sbm prices fetch, from the same API).
    const usdt = inputs.fiatAssets?.['USDT'] ?? [];
    expect(usdt.length).toBeGreaterThan(0);
    const usdtRate = (day: string) => new Decimal(usdt.find((f) => f.date === addDays(day, 1))!.gbp!);
    const deposits = [
      'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Deposit Address,Transfer Network,Status,Remarks',
      '12345678,mainAccount,2026-01-04 18:00:00,USDT,701,0,0xd1,TXs1,TRC20,SUCCESS,',
    ].join('\n');
    const orders = [
      'UID,Account Type,Order ID,Order Time(UTC+08:00),Symbol,Side,Order Type,Order Price,Order Amount,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC+08:00),Fee,Fee Currency,Tax,Status',
      '12345678,mainAccount,o1,2026-01-05 18:00:00,TAO-USDT,BUY,market,,,350,2,700,700,2026-01-05 18:00:00,0.7,USDT,0,deal',
    ].join('\n');
    const customer = readCustomerFiles([
      { name: 'kucoin-deposits.csv', bytes: new TextEncoder().encode(deposits), role: 'records' },
      { name: 'kucoin-spot-orders.csv', bytes: new TextEncoder().encode(orders), role: 'records' },
    ]);
    const ledger = await computeTaxYearLedger(
      inputs,
      order().coldkeys,
      await chain.reader(),
      undefined,
      customer,
    );
    const rows = ledger.combined.transactions;
    const value = usdtRate('2026-01-05').times(700);
    const fee = usdtRate('2026-01-05').times('0.7');
    // The TAO costs the USDT's value and half the fee; the USDT paid is a disposal at that value, its fee
    // half on it; the 701 USDT deposited came from nowhere the files show: at its market value that day.
    const tao = rows.find((tx) => tx.asset === 'TAO' && tx.ref === 'kucoin-spot-orders.csv line 2');
    expect(tao?.gbp.toFixed(8)).toBe(value.plus(fee.div(2)).toFixed(8));
    const spent = rows.find((tx) => tx.asset === 'USDT' && tx.action === 'dispose' && tx.quantity.eq(700));
    expect(spent?.gbp.toFixed(8)).toBe(value.toFixed(8));
    expect(spent?.fee?.toFixed(8)).toBe(fee.div(2).toFixed(8));
    const paidIn = rows.find((tx) => tx.asset === 'USDT' && tx.action === 'acquire');
    expect(paidIn?.gbp.toFixed(8)).toBe(usdtRate('2026-01-04').times(701).toFixed(8));
    expect(ledger.mapping.flags.map((f) => f.text)).toContainEqual(
      expect.stringMatching(
        /kucoin-deposits\.csv line 2: a deposit of 701 USDT .* its cost is taken as its market value/,
      ),
    );
  });
});
