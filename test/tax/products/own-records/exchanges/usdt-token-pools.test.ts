/**
 * USDT is a token (HMRC: a stablecoin is a cryptoasset, CRYPTO10100), with its own section 104 pool, its
 * own same-day and 30-day matching and its own gain or loss against the pound. A history that buys USDT
 * with pounds on Binance, buys TAO with it and sells TAO for it, then sells the USDT for pounds, worked out
 * here by hand from HMRC's rules; then the same kind of history in Binance's, KuCoin's, Gate's and MEXC's
 * own exports, read by the pack and by BittyTax's converter (`bittytax_conv`, unchanged) + BittyTax, given
 * the same daily rates of TAO and USDT: the same figures per tax year to £0.02, and the same final pools.
 *
 * Rates (the prices file `sbm tax cgt --prices` reads, as `tax/fiat-prices.json` carries them): a UK day D
 * takes the quote dated D + 1. USDT is quoted at £0.80 in May, £0.78 in June, £0.74 in July, £0.75 after;
 * TAO at £310 in June and £305 in July (a trade of TAO for USDT is valued at the USDT side, the surer price,
 * as BittyTax values it: the TAO rates are never used for these trades).
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { ukDay } from '../../../../../pipeline/time/uk-day.js';
import { type BittyTaxYear, locateBittyTax, runBittyTax } from '../../../../support/bittytax.js';
import { type ConvRecord, runBittyTaxConv } from '../../../../support/bittytax-conv.js';
import { type CgtJsonWithPoints, reportWithFiles } from '../run-cgt-with-files.js';

const D = Decimal.clone({ precision: 50 });

function quote(asset: 'TAO' | 'USDT', date: string): string {
  const month = date.slice(5, 7);
  if (asset === 'USDT')
    return month === '05' ? '0.80' : month === '06' ? '0.78' : month === '07' ? '0.74' : '0.75';
  return month === '06' ? '310' : month === '07' ? '305' : '300';
}

/** Every UTC date of April to December 2025, as `tax/fiat-prices.json` lists them. */
function dates(): string[] {
  const out: string[] = [];
  for (
    let ms = Date.parse('2025-04-01T00:00:00Z');
    ms <= Date.parse('2025-12-31T00:00:00Z');
    ms += 86_400_000
  )
    out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

const PRICES = JSON.stringify({
  days: dates().map((date) => ({ date, usd: null, gbp: quote('TAO', date), source: 'test' })),
  assets: {
    USDT: dates().map((date) => ({ date, usd: '1', gbp: quote('USDT', date), source: 'test' })),
  },
});

/** The rate of a UK day: the quote dated the day after. */
function rate(asset: 'TAO' | 'USDT', day: string): Decimal {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return new D(quote(asset, next));
}

const BINANCE = [
  'User_ID,UTC_Time,Account,Operation,Coin,Change,Remark',
  // £1,000 paid in and 1,250 USDT bought with it.
  '81234567,2025-05-01 09:00:00,Spot,Fiat Deposit,GBP,1000,',
  '81234567,2025-05-01 09:30:00,Spot,Transaction Buy,USDT,1250,',
  '81234567,2025-05-01 09:30:00,Spot,Transaction Spend,GBP,-1000,',
  // 2 TAO bought for 600 USDT, the fee 0.002 TAO.
  '81234567,2025-06-02 10:00:00,Spot,Transaction Buy,TAO,2,',
  '81234567,2025-06-02 10:00:00,Spot,Transaction Spend,USDT,-600,',
  '81234567,2025-06-02 10:00:00,Spot,Transaction Fee,TAO,-0.002,',
  // 1 TAO sold for 400 USDT, the fee 0.4 USDT.
  '81234567,2025-07-10 11:00:00,Spot,Transaction Sold,TAO,-1,',
  '81234567,2025-07-10 11:00:00,Spot,Transaction Revenue,USDT,400,',
  '81234567,2025-07-10 11:00:00,Spot,Transaction Fee,USDT,-0.4,',
  // All the USDT sold for £800.
  '81234567,2025-08-01 12:00:00,Spot,Transaction Sold,USDT,-1049.6,',
  '81234567,2025-08-01 12:00:00,Spot,Transaction Revenue,GBP,800,',
].join('\n');

const pence = (value: Decimal | string) => new D(value).toFixed(2, Decimal.ROUND_HALF_UP);
const shown = (report: CgtJsonWithPoints) => ({
  disposals: report.disposals.map(
    (d) => `${d.date} ${d.asset} ${new D(d.quantity).toFixed()} £${pence(d.proceeds)} cost £${pence(d.cost)}`,
  ),
  pools: report.pools.map((p) => `${p.asset} ${new D(p.quantity).toFixed()} £${pence(p.cost)}`),
});

describe('USDT as a token of its own', () => {
  it('a history that buys USDT with pounds, TAO with USDT and sells TAO for USDT: the figures by hand', async () => {
    // 1 May: 1,250 USDT acquired for £1,000 (its pool: 1,250 for £1,000).
    // 2 June: 2 TAO for 600 USDT, worth 600 × £0.78 = £468 (the USDT side's rate). The fee of 0.002 TAO is
    //   worth the trade's own price of TAO, 0.002 × £468 / 2 = £0.468, allowable half on each side
    //   (CRYPTO22150), and is itself a disposal of TAO.
    const june = new D(600).times(rate('USDT', '2025-06-02'));
    const juneFee = new D('0.002').times(june).div(2);
    const usdtJuneCost = new D(1000).times(600).div(1250).plus(juneFee.div(2));
    const taoCost = june.plus(juneFee.div(2));
    //   TAO: the fee's 0.002 disposed of the same day, matched with that day's 2 acquired (same-day rule).
    const feeSameDay = taoCost.times('0.002').div(2);
    const taoPool = { quantity: new D('1.998'), cost: taoCost.minus(feeSameDay) };
    const usdtPool = { quantity: new D(650), cost: new D(1000).minus(new D(1000).times(600).div(1250)) };
    // 10 July: 1 TAO for 400 USDT, worth 400 × £0.74 = £296; the fee of 0.4 USDT at the trade's price of
    //   USDT (£296 / 400), £0.296, half on each side and a disposal of USDT matched the same day.
    const july = new D(400).times(rate('USDT', '2025-07-10'));
    const julyFee = new D('0.4').times(july).div(400);
    const taoJulyCost = taoPool.cost.div(taoPool.quantity).plus(julyFee.div(2));
    const usdtAcquired = july.plus(julyFee.div(2));
    const usdtFeeCost = usdtAcquired.times('0.4').div(400);
    // 1 August: all 1,049.6 USDT for £800: the pool's 650 for £520 and 399.6 of July's for the rest.
    const usdtAugustCost = usdtPool.cost.plus(usdtAcquired.minus(usdtFeeCost));
    const taoLeft = taoPool.cost.minus(taoPool.cost.div(taoPool.quantity));

    const report = await reportWithFiles({ records: { 'binance-history.csv': BINANCE }, prices: PRICES });
    expect(shown(report)).toEqual({
      disposals: [
        `2025-06-02 TAO 0.002 £${pence(juneFee)} cost £${pence(feeSameDay)}`,
        `2025-06-02 USDT 600 £${pence(june)} cost £${pence(usdtJuneCost)}`,
        `2025-07-10 TAO 1 £${pence(july)} cost £${pence(taoJulyCost)}`,
        `2025-07-10 USDT 0.4 £${pence(julyFee)} cost £${pence(usdtFeeCost)}`,
        `2025-08-01 USDT 1049.6 £800.00 cost £${pence(usdtAugustCost)}`,
      ],
      pools: [`TAO 0.998 £${pence(taoLeft)}`, 'USDT 0 £0.00'],
    });
    // USDT's own losses against the pound: £12.23 in June (bought at £0.80, spent at £0.78) and £15.85 in
    // August.
    expect(pence(june.minus(usdtJuneCost))).toBe('-12.23');
    expect(pence(new D(800).minus(usdtAugustCost))).toBe('-15.85');
  });
});

/** The Binance history as BittyTax transaction records, its trades' values given as BittyTax would take them. */
const BITTYTAX_RECORDS = [
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
  'Trade,1250,USDT,,1000,GBP,,,,,Binance,2025-05-01T09:30:00.000 UTC,',
  'Trade,2,TAO,468,600,USDT,468,0.002,TAO,,Binance,2025-06-02T10:00:00.000 UTC,',
  'Trade,400,USDT,296,1,TAO,296,0.4,USDT,,Binance,2025-07-10T11:00:00.000 UTC,',
  'Trade,800,GBP,,1049.6,USDT,,,,,Binance,2025-08-01T12:00:00.000 UTC,',
].join('\n');

describe('USDT in a BittyTax records file', () => {
  it('is a token of its own there too: the same figures as the Binance history', async () => {
    const fromBinance = await reportWithFiles({
      records: { 'binance-history.csv': BINANCE },
      prices: PRICES,
    });
    const fromRecords = await reportWithFiles({ records: { 'bittytax.csv': BITTYTAX_RECORDS } });
    expect(shown(fromRecords)).toEqual(shown(fromBinance));
  });
});

/** The same kind of history in each exchange's own files: USDT paid in, TAO bought with it and sold for it. */
const EXCHANGES: Record<string, { files: Record<string, string>; config?: string; shiftMs?: number }> = {
  binance: { files: { 'binance-history.csv': BINANCE }, config: 'binance_statements_only: True\n' },
  kucoin: {
    files: {
      'kucoin-deposits.csv': [
        'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Deposit Address,Transfer Network,Status,Remarks',
        '12345678,mainAccount,2025-05-01 17:00:00,USDT,1250,0,0xd1,TXs1,TRC20,SUCCESS,',
      ].join('\n'),
      'kucoin-spot-orders.csv': [
        'UID,Account Type,Order ID,Order Time(UTC+08:00),Symbol,Side,Order Type,Order Price,Order Amount,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC+08:00),Fee,Fee Currency,Tax,Status',
        '12345678,mainAccount,o1,2025-06-02 18:00:00,TAO-USDT,BUY,market,,,300,2,600,600,2025-06-02 18:00:00,0.6,USDT,0,deal',
        '12345678,mainAccount,o2,2025-07-10 19:00:00,TAO-USDT,SELL,market,,,400,1,400,400,2025-07-10 19:00:00,0.4,USDT,0,deal',
      ].join('\n'),
    },
    // The converter reads `UTC+08:00` as a POSIX zone, 16 hours the wrong way (kucoin.test.ts).
    shiftMs: -16 * 3_600_000,
  },
  gate: {
    files: {
      'gate-account-book.csv': [
        'no,time,action_desc,action_data,type,change_amount,amount,total',
        '1,2025-05-01 09:00:00,Deposits,D1,USDT,1250,1250,1250',
        '2,2025-06-02 10:00:00,Order Filled,O1,TAO,2,2,2',
        '3,2025-06-02 10:00:00,Order Filled,O1,USDT,-600,650,650',
        '4,2025-06-02 10:00:00,Trading Fees,O1,TAO,-0.002,1.998,1.998',
        '5,2025-07-10 11:00:00,Order Filled,O2,TAO,-1,0.998,0.998',
        '6,2025-07-10 11:00:00,Order Filled,O2,USDT,400,1050,1050',
        '7,2025-07-10 11:00:00,Trading Fees,O2,USDT,-0.4,1049.6,1049.6',
      ].join('\n'),
    },
  },
  mexc: {
    files: {
      'mexc-deposits.csv': [
        'UID,Status,Time,Crypto,Network,Deposit Amount,TxID,Progress',
        '81234567,Credited Successfully,2025-05-01 09:00:00,USDT,Tron(TRC20),1250,0xd1,12/12',
      ].join('\n'),
      'mexc-trades.csv': [
        'UID,Pairs,Time,Side,Filled Price,Executed Amount,Total,Fee,Role',
        '81234567,TAO_USDT,2025-06-02 10:00:00,Buy,300,2,600,0.6USDT,Taker',
        '81234567,TAO_USDT,2025-07-10 11:00:00,Sell,400,1,400,0.4USDT,Taker',
      ].join('\n'),
    },
  },
};

const bittytax = await locateBittyTax();
const HEADER =
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note';
const FIAT = new Set(['GBP', 'EUR', 'USD']);
/** BittyTax's order of preference for the side that values a trade (config.py: fiat_list + crypto_list). */
const PRIORITY = ['GBP', 'EUR', 'USD', 'USDT', 'USDC', 'BTC', 'ETH', 'BNB'];
const rank = (asset: string) => (PRIORITY.includes(asset) ? PRIORITY.indexOf(asset) : PRIORITY.length + 1);

/**
 * The converter's records with the values BittyTax would look up filled in from the same daily rates (its
 * own rule, transactions.py `which_asset_value`: the side earlier in its list, the side sold when equal),
 * fees left for BittyTax to price from the trade. A deposit of USDT, which BittyTax books as a transfer with
 * no cost, is given as the pack books it and its point to check says: acquired at its market value that day
 * (`Gift-Received`: an acquisition at its value, not income).
 */
function valued(records: readonly ConvRecord[], shiftMs: number): string[] {
  return records.map((r) => {
    const at = new Date(Date.parse(r.timestamp.replace(' UTC', 'Z')) + shiftMs);
    const day = ukDay(at.getTime());
    const value = (asset: string, quantity: string) =>
      asset === 'GBP' ? new D(quantity) : new D(quantity).times(rate(asset as 'TAO' | 'USDT', day));
    let { type, buyValue, sellValue } = r;
    if (type === 'Trade' && buyValue === '' && sellValue === '') {
      const sold = rank(r.sellAsset) <= rank(r.buyAsset);
      const v = sold ? value(r.sellAsset, r.sellQuantity) : value(r.buyAsset, r.buyQuantity);
      if (!FIAT.has(r.buyAsset) || !FIAT.has(r.sellAsset)) {
        buyValue = v.toFixed();
        sellValue = v.toFixed();
      }
    }
    if (type === 'Deposit' && !FIAT.has(r.buyAsset)) {
      type = 'Gift-Received';
      buyValue = value(r.buyAsset, r.buyQuantity).toFixed();
    }
    return [
      type,
      r.buyQuantity,
      r.buyAsset,
      buyValue,
      r.sellQuantity,
      r.sellAsset,
      sellValue,
      r.feeQuantity,
      r.feeAsset,
      r.feeValue,
      r.wallet,
      at.toISOString(),
      '',
    ].join(',');
  });
}

/** The pack's figures as BittyTax reports them: per tax year the matched parts, proceeds, costs and net gain. */
function packYears(report: CgtJsonWithPoints): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const d of report.disposals) {
    const year = report.tax_years.find((y) => y.tax_year === taxYearOf(d.date))!;
    const entry = out.get(year.tax_year);
    out.set(year.tax_year, {
      disposals: (entry?.disposals ?? 0) + d.matched.length,
      proceeds: new D(year.proceeds),
      costs: new D(year.costs),
      net: new D(year.gains).minus(year.losses),
    });
  }
  return out;
}

interface Figures {
  disposals: number;
  proceeds: Decimal;
  costs: Decimal;
  net: Decimal;
}

const heldPools = (report: CgtJsonWithPoints) => report.pools.filter((p) => new D(p.quantity).gt(0));

function taxYearOf(day: string): string {
  const year = Number(day.slice(0, 4));
  const start = day.slice(5) >= '04-06' ? year : year - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}

function bittyYears(years: readonly BittyTaxYear[]) {
  return new Map(
    years.map((y) => [
      y.taxYear,
      {
        disposals: y.disposals,
        proceeds: new D(y.proceeds),
        costs: new D(y.costs),
        net: new D(y.gains).minus(y.losses),
      },
    ]),
  );
}

describe.skipIf('skip' in bittytax)("each exchange's export against bittytax_conv + BittyTax", () => {
  it.each(Object.keys(EXCHANGES))(
    '%s: the same figures per tax year to £0.02 and the same final pools',
    async (name) => {
      const { files, config = '', shiftMs = 0 } = EXCHANGES[name]!;
      const report = await reportWithFiles({ records: files, prices: PRICES });
      const rows: string[] = [];
      for (const [file, text] of Object.entries(files)) {
        const converted = await runBittyTaxConv(text, file, bittytax, config);
        rows.push(...valued(converted.records, shiftMs));
      }
      const run = (extra: string[]) =>
        runBittyTax([HEADER, ...rows, ...extra].join('\n'), {
          location: bittytax,
          skipIntegrity: true,
          allowWarnings: [/Balance at \w+:[\w-]+ is negative/],
        }).then(bittyYears);
      const theirs = await run([]);
      const mine = packYears(report);
      expect([...mine.keys()].sort(), name).toEqual([...theirs.keys()].sort());
      for (const [year, figures] of mine) {
        const other = theirs.get(year)!;
        expect(figures.disposals, `${name} ${year} matched parts`).toBe(other.disposals);
        for (const key of ['proceeds', 'costs', 'net'] as const) {
          expect(
            figures[key].minus(other[key]).abs().toNumber(),
            `${name} ${year} ${key}`,
          ).toBeLessThanOrEqual(0.02);
        }
      }
      // Each pool the pack ends with, spent for nothing in the next tax year: BittyTax's allowable costs that
      // year are its pool's cost.
      expect(heldPools(report).map((p) => p.asset)).toContain('TAO');
      for (const pool of heldPools(report)) {
        const spent = await run([
          `Spend,,,,${pool.quantity},${pool.asset},0,,,,${name},2026-06-01T12:00:00.000Z,`,
        ]);
        const cost = spent.get('2026/27')?.costs;
        expect(cost?.minus(pool.cost).abs().toNumber(), `${name} ${pool.asset} pool`).toBeLessThanOrEqual(
          0.01,
        );
      }
      if (name !== 'binance') {
        // The USDT paid in has no record of its purchase: taken at its market value, and said so.
        expect(report.points_to_check?.join('\n')).toMatch(
          /a deposit of 1250 USDT .* its cost is taken as its market value that day \(£1000\.00\)/,
        );
      }
    },
  );
});
