/**
 * The BittyTax harness (test/support/bittytax.ts) on HMRC's CRYPTO22251 example 1, so a test comparing the
 * pack's `bittytax.csv` with BittyTax can trust what the harness reads. Dates as in
 * test/tax/uk-rules/cgt/hmrc-examples.test.ts: HMRC's "20XX" put in 2024, the opening pool on 1 January 2020.
 * BittyTax is run from its source, offline; where it cannot be found or started the test is skipped with
 * the reason in its title.
 */
import { expect, it } from 'vitest';
import { locateBittyTax, runBittyTax } from '../../support/bittytax.js';

/** BittyTax's README columns; it skips the first line whatever it says and reads the columns by position. */
const HEADER =
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note';

const bittytax = await locateBittyTax();
const SKIPPED = 'skip' in bittytax ? ` (skipped: ${bittytax.skip})` : '';

it.skipIf('skip' in bittytax)(
  `BittyTax gives HMRC's figures for CRYPTO22251 (pool of 100 for £1,000, 50 bought for £125,000, 50 sold for £300,000)${SKIPPED}`,
  async () => {
    const csv = [
      HEADER,
      // "Victoria bought 100 token A for £1,000."
      'Trade,100,A,1000,1000,GBP,1000,,,,Exchange,2020-01-01T12:00:00.000 UTC,opening pool',
      // "On 18 September 20XX Victoria bought a further 50 token A for £125,000."
      'Trade,50,A,125000,125000,GBP,125000,,,,Exchange,2024-09-18T12:00:00.000 UTC,buy',
      // "On 1 December 20XX Victoria sells 50 of her token A for £300,000."
      'Trade,300000,GBP,300000,50,A,300000,,,,Exchange,2024-12-01T12:00:00.000 UTC,sell',
    ].join('\n');
    // "Less allowable costs £126,000 x (50 / 150) (£42,000) / Gain £258,000"
    expect(await runBittyTax(csv, { location: bittytax })).toEqual([
      {
        taxYear: '2024/25',
        disposals: 1,
        proceeds: '300000.00',
        costs: '42000.00',
        gains: '258000.00',
        losses: '0.00',
      },
    ]);
  },
);

it.skipIf('skip' in bittytax)(
  `a record BittyTax would have to price (a crypto fee without its GBP value) is an error, not £0${SKIPPED}`,
  async () => {
    const csv = [
      HEADER,
      'Trade,10,TAO,3000,3000,GBP,3000,,,,Exchange,2025-05-01T12:00:00.000 UTC,buy',
      'Withdrawal,,,,5,TAO,,0.01,TAO,,Exchange,2025-06-01T12:00:00.000 UTC,fee without value',
      'Deposit,5,TAO,,,,,,,,Coldkey,2025-06-01T12:10:00.000 UTC,arrives',
    ].join('\n');
    await expect(runBittyTax(csv, { location: bittytax })).rejects.toThrow(
      /Price for TAO on 2025-06-01 is not available/,
    );
  },
);
