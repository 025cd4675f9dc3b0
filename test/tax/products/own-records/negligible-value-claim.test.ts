/**
 * BittyTax's `Lost` is a negligible value claim (TCGA 1992 s24(2); HMRC CRYPTO22400, CRYPTO22500): the
 * tokens are treated as disposed of and reacquired at once at the claimed value (the Sell Value, £0 when
 * empty), and neither side is matched under the same-day or 30-day rules.
 *
 * Buy 10 TAO for £1,000; claim 2 lost (at £0); five days later sell 8 for £2,000:
 *   claim: 2 out of the pool at £200 (a loss of £200), 2 back in at £0: pool 10 for £800;
 *   sale:  8 of 10 at £800 = £640 (a gain of £1,360): pool 2 for £160.
 */
import { describe, expect, it } from 'vitest';
import { locateBittyTax, runBittyTax } from '../../../support/bittytax.js';
import { pence, reportWithFiles } from './run-cgt-with-files.js';

const BITTYTAX = [
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note',
  'Trade,10,TAO,,1000,GBP,,,,,Kraken,2025-06-01T10:00:00Z,',
  'Lost,,,,2,TAO,,,,,Ledger,2025-06-10T10:00:00Z,',
  'Trade,2000,GBP,,8,TAO,,,,,Kraken,2025-06-15T10:00:00Z,',
].join('\n');

const SAME_DAY = [
  ...BITTYTAX.split('\n').slice(0, 3),
  'Trade,1,TAO,,150,GBP,,,,,Kraken,2025-06-10T15:00:00Z,',
].join('\n');

const bittytax = await locateBittyTax();

describe('a BittyTax Lost row: a negligible value claim', () => {
  it('is a disposal and a reacquisition at the claimed value: the later sale costs £640, 2 TAO at £160 stay', async () => {
    const report = await reportWithFiles({ records: { 'bt.csv': BITTYTAX } });
    expect(
      report.disposals.map(
        (x) =>
          `${x.date} ${x.quantity} £${pence(x.proceeds)} cost £${pence(x.cost)} ${x.matched.map((m) => m.rule).join('+')}`,
      ),
    ).toEqual(['2025-06-10 2 £0.00 cost £200.00 s104', '2025-06-15 8 £2000.00 cost £640.00 s104']);
    expect(report.pools.map((p) => `${p.asset} ${p.quantity} £${pence(p.cost)}`)).toEqual(['TAO 2 £160.00']);
  });

  it('is not matched with the same day: a purchase later that day joins the pool after it', async () => {
    // Pool 10 for £1,000; the claim at 10:00 takes 2 of them (£200) and puts 2 back at £0: 10 for £800;
    // the purchase at 15:00 (1 for £150) is not matched with the claim and joins the pool: 11 for £950.
    const report = await reportWithFiles({ records: { 'bt.csv': SAME_DAY } });
    expect(
      report.disposals.map((x) => `${x.date} ${x.quantity} cost £${pence(x.cost)} ${x.matched[0]!.rule}`),
    ).toEqual(['2025-06-10 2 cost £200.00 s104']);
    expect(report.pools.map((p) => `${p.asset} ${p.quantity} £${pence(p.cost)}`)).toEqual(['TAO 11 £950.00']);
  });

  it.skipIf('skip' in bittytax)('BittyTax itself gives the same-day figures', async () => {
    expect(await runBittyTax(SAME_DAY, { location: bittytax })).toEqual([
      {
        taxYear: '2025/26',
        disposals: 1,
        proceeds: '0.00',
        costs: '200.00',
        gains: '0.00',
        losses: '200.00',
      },
    ]);
  });

  it.skipIf('skip' in bittytax)('BittyTax itself gives these figures', async () => {
    expect(await runBittyTax(BITTYTAX, { location: bittytax })).toEqual([
      {
        taxYear: '2025/26',
        disposals: 2,
        proceeds: '2000.00',
        costs: '840.00',
        gains: '1360.00',
        losses: '200.00',
      },
    ]);
  });
});
