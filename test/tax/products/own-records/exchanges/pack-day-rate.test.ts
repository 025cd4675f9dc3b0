/**
 * The pack values the buyer's exchange rows that give no pounds (a reward, a trade of TAO against dollars,
 * a withdrawal fee in TAO) at the TAO/GBP rate of their UK day: the published quote dated the day after,
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
import { type PackWorld, publishPackWorld } from '../../pack/pack-world.js';

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
  world = await publishPackWorld({ genesis: new Date('2026-01-01T00:00:00Z'), historyDays: 16 });
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
});
