/**
 * Rows an exchange export gives no pounds for (a trade of TAO against dollars, a reward, a withdrawal fee in
 * TAO) are valued where the records meet the prices: `sbm tax cgt --prices` with the published daily prices,
 * as the pack values them with its own. The expected figures are worked here from the rates in the prices
 * file (UK day D takes the quote dated D + 1) by the HMRC matching rules, not taken from the product.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { reportWithFiles, runWithFiles } from '../run-cgt-with-files.js';

const D = Decimal.clone({ precision: 40 });

const q = (cells: string[]) => cells.map((c) => `"${c}"`).join(',');
const KRAKEN = [
  '"txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance"',
  // 2 TAO bought for 640 dollars, a fee of 1.60 dollars.
  q([
    'L1',
    'T1',
    '2025-05-01 10:00:00',
    'trade',
    '',
    'currency',
    'ZUSD',
    'spot / main',
    '-640.0000',
    '1.6000',
    '0',
  ]),
  q([
    'L2',
    'T1',
    '2025-05-01 10:00:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '2.0000000000',
    '0',
    '2',
  ]),
  // 1 TAO withdrawn, its fee 0.0009 TAO; a reward of 0.004 TAO.
  q([
    'L3',
    'W1',
    '2025-05-01 12:00:00',
    'withdrawal',
    '',
    'currency',
    'TAO',
    'spot / main',
    '-1.0000000000',
    '0.0009000000',
    '0.9991',
  ]),
  q([
    'L4',
    'R1',
    '2025-05-01 20:10:00',
    'earn',
    'reward',
    'currency',
    'TAO',
    'earn / bonded',
    '0.0040000000',
    '0',
    '1.0031',
  ]),
  // 1 TAO deposited back, and sold for £350 a month later.
  q([
    'L5',
    'D1',
    '2025-06-02 08:00:00',
    'deposit',
    '',
    'currency',
    'TAO',
    'spot / main',
    '1.0000000000',
    '0',
    '2.0031',
  ]),
  q([
    'L6',
    'T2',
    '2025-06-02 09:30:00',
    'trade',
    '',
    'currency',
    'TAO',
    'spot / main',
    '-1.0000000000',
    '0',
    '1.0031',
  ]),
  q([
    'L7',
    'T2',
    '2025-06-02 09:30:00',
    'trade',
    '',
    'currency',
    'ZGBP',
    'spot / main',
    '350.0000',
    '0',
    '350',
  ]),
].join('\n');

/** The published prices: 1 May's end is valued by the quote of 2 May (£310.50 a TAO). */
const PRICES = JSON.stringify({
  days: [
    { date: '2025-05-01', usd: '400.00000000', gbp: '300.00000000', source: 'test' },
    { date: '2025-05-02', usd: '415.00000000', gbp: '310.50000000', source: 'test' },
    { date: '2025-06-02', usd: '420.00000000', gbp: '320.00000000', source: 'test' },
    { date: '2025-06-03', usd: '430.00000000', gbp: '330.00000000', source: 'test' },
  ],
});

const pence = (value: Decimal.Value) => new D(value).toFixed(2);

describe('rows an exchange gives no pounds for', () => {
  it('are valued at the TAO/GBP rate of their UK day, and the points say how many', async () => {
    const report = await reportWithFiles({ records: { 'kraken.csv': KRAKEN }, prices: PRICES });
    const rate = new D('310.50');
    // 1 May: the 2 TAO cost their value at the day's rate, and the dollar fee its share of it (1.6 of 640).
    const bought = rate.times(2);
    const fee = bought.times('1.6').div(640);
    const reward = rate.times('0.004');
    const acquired = bought.plus(fee).plus(reward);
    // The withdrawal's fee is a disposal of 0.0009 TAO on the same day: matched with that day's 2.004 TAO.
    const feeCost = acquired.times('0.0009').div('2.004');
    const poolQuantity = new D('2.004').minus('0.0009');
    const poolCost = acquired.minus(feeCost);
    // 2 June: 1 TAO sold from the pool.
    const saleCost = poolCost.div(poolQuantity);
    expect(report.disposals.map((d) => [d.date, d.quantity, pence(d.proceeds), pence(d.cost)])).toEqual([
      ['2025-05-01', '0.0009', pence(rate.times('0.0009')), pence(feeCost)],
      ['2025-06-02', '1', '350.00', pence(saleCost)],
    ]);
    expect(report.pools.map((p) => [p.asset, p.quantity, pence(p.cost)])).toEqual([
      ['TAO', poolQuantity.minus(1).toFixed(), pence(poolCost.minus(saleCost))],
    ]);
    expect(report.points_to_check).toContainEqual(
      expect.stringMatching(
        /^kraken\.csv: 3 row\(s\) of tax year 2025\/26 \(lines 2, 4, 5\) have no value in pounds in the export/,
      ),
    );
  });

  it('are refused without the prices, saying to give them', async () => {
    const run = await runWithFiles({ records: { 'kraken.csv': KRAKEN } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /kraken\.csv line 2: the export gives no value in pounds for this row: give --prices/,
    );
  });

  it('are valued at an older quote when the day has none, and the points say which', async () => {
    // No quote dated 2 May (1 May's end): 1 May's rows take the 1 May quote, £300 a TAO, and say so.
    const gappy = JSON.stringify({
      days: JSON.parse(PRICES).days.filter((d: { date: string }) => d.date !== '2025-05-02'),
    });
    const report = await reportWithFiles({ records: { 'kraken.csv': KRAKEN }, prices: gappy });
    const [feeDisposal] = report.disposals;
    expect([feeDisposal?.date, pence(feeDisposal!.proceeds)]).toEqual([
      '2025-05-01',
      pence(new D(300).times('0.0009')),
    ]);
    expect(report.points_to_check).toContainEqual(
      expect.stringMatching(
        /^2025-05-01: no TAO\/GBP rate was published at the end of this UK day: .* rate of 2025-05-01/,
      ),
    );
  });

  it('name a prices file that is not the published one', async () => {
    const run = await runWithFiles({
      records: { 'kraken.csv': KRAKEN },
      prices: 'date,gbp\n2025-05-02,310.5',
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/fiat-prices\.json is not JSON: give the published tax\/fiat-prices\.json/);
  });

  it('are refused at their line when the prices have no rate near their day', async () => {
    const early = JSON.stringify({
      days: [{ date: '2025-04-01', usd: '400.00000000', gbp: '300.00000000', source: 'test' }],
    });
    const run = await runWithFiles({ records: { 'kraken.csv': KRAKEN }, prices: early });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /kraken\.csv line 2: .*no published GBP rate of USD or TAO is near enough to its UK day 2025-05-01/,
    );
  });

  it("leave a fee in the exchange's own token out of the costs and say so", async () => {
    // Gate's account book: 2 TAO bought for 640 USDT, its fee paid in GT (Gate's token, which the pack has
    // no price for); then 1 TAO sold for 330 USDT.
    const book = [
      'no,time,action_desc,action_data,type,change_amount,amount,total',
      '1,2025-05-01 10:00:00,Order Filled,O200,TAO,2,2,2',
      '2,2025-05-01 10:00:00,Order Filled,O200,USDT,-640,0,0',
      '3,2025-05-01 10:00:00,Trading Fees,O200,GT,-0.3,0,0',
      '4,2025-06-02 09:30:00,Order Filled,O201,TAO,-1,1,1',
      '5,2025-06-02 09:30:00,Order Filled,O201,USDT,330,330,330',
    ].join('\n');
    const report = await reportWithFiles({ records: { 'gate.csv': book }, prices: PRICES });
    // Valued at the rates of the published prices (UK day D takes the quote of D + 1; these prices have no
    // USDT, so TAO's); without the fee, the cost of the TAO sold is half of 2 TAO at 1 May's rate. The 640
    // USDT paid is a disposal of USDT, taken as acquired at its value (the file shows it arriving nowhere).
    expect(report.disposals.map((d) => [d.date, d.asset, pence(d.proceeds), pence(d.cost)])).toEqual([
      ['2025-05-01', 'USDT', '621.00', '621.00'],
      ['2025-06-02', 'TAO', pence(new D('330')), pence(new D('310.50'))],
    ]);
    expect(report.points_to_check).toContainEqual(
      expect.stringMatching(
        /1 fee\(s\) paid in a token the pack has no price for were not counted as a cost \(gate\.csv line 2: 0\.3 GT\)/,
      ),
    );
  });
});
