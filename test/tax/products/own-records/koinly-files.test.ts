/**
 * Koinly's files as people download them: the universal template with its label column named `Tag` (as
 * Koinly's current template names it) or its date column `Koinly Date`, and Koinly's own transaction export
 * (`Type`, `Tag`, `Net Value (GBP)`), which is not the template and is read as what it is. A row whose type
 * or label is not known is refused with its line, never taken as something else.
 */
import { describe, expect, it } from 'vitest';
import {
  CustomerInputsRejected,
  type InputProblem,
  type OwnRecord,
} from '../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { pence, reportWithFiles } from './run-cgt-with-files.js';

const TEMPLATE = (label: string, date = 'Date') =>
  `${date},Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,${label},Description,TxHash`;

const ROWS = [
  '2025-06-01 10:00:00 UTC,1000,GBP,10,TAO,,,,,,,',
  '2025-06-02 10:00:00 UTC,,,0.1,TAO,,,30,GBP,reward,,',
  '2025-06-20 10:00:00 UTC,10.1,TAO,3300,GBP,,,,,,,',
];

const EXPORT_HEADER =
  'Date,Type,Tag,Sending Wallet,Sent Amount,Sent Currency,Sent Cost Basis,Receiving Wallet,Received Amount,Received Currency,Received Cost Basis,Fee Amount,Fee Currency,Gain (GBP),Net Value (GBP),Fee Value (GBP),TxSrc,TxDest,TxHash,Description';

const upload = (name: string, text: string) => ({
  name,
  bytes: new TextEncoder().encode(text),
  role: 'records' as const,
});
const shown = (r: OwnRecord) =>
  `${r.line} ${r.kind} ${r.quantity.toFixed()} ${r.asset} ${r.gbp === null ? '-' : `£${r.gbp.toFixed()}`}${r.fee ? ` fee ${r.fee.quantity.toFixed()} ${r.fee.asset} £${r.fee.gbp.toFixed()}` : ''}${r.wallet ? ` @${r.wallet}` : ''}`;

function problems(name: string, text: string): InputProblem[] {
  try {
    readCustomerFiles([upload(name, text)]);
  } catch (error) {
    if (error instanceof CustomerInputsRejected) return error.problems;
    throw error;
  }
  throw new Error('the upload was accepted');
}

describe('Koinly files', () => {
  it('reads a Tag column as the label: staking income is income, as with Label', async () => {
    const cost = async (header: string) => {
      const report = await reportWithFiles({ records: { 'koinly.csv': [header, ...ROWS].join('\n') } });
      return report.disposals.map((d) => `${d.quantity} £${pence(d.cost)}`);
    };
    // 10 for £1,000 and 0.1 of income at £30: the sale of all 10.1 costs £1,030.
    expect(await cost(TEMPLATE('Label'))).toEqual(['10.1 £1030.00']);
    expect(await cost(TEMPLATE('Tag'))).toEqual(['10.1 £1030.00']);
  });

  it('refuses a tag it does not know, with its line, rather than reading a plain deposit', () => {
    const text = [TEMPLATE('Tag'), '2025-06-02 10:00:00 UTC,,,0.1,TAO,,,30,GBP,bounty,,'].join('\n');
    expect(problems('koinly.csv', text)).toEqual([
      {
        file: 'koinly.csv',
        line: 2,
        column: 'Tag',
        reason:
          '"bounty" is not read on a receipt: leave it empty (a deposit), an income label (staking, reward, airdrop, income, mining, lending interest) or gift',
      },
    ]);
  });

  it('reads a Koinly Date header', () => {
    const read = readCustomerFiles([upload('k.csv', [TEMPLATE('Label', 'Koinly Date'), ...ROWS].join('\n'))]);
    expect(read.records.map((r) => `${r.at.toISOString()} ${r.kind}`)).toEqual([
      '2025-06-01T10:00:00.000Z buy',
      '2025-06-02T10:00:00.000Z income',
      '2025-06-20T10:00:00.000Z sell',
    ]);
  });

  it('a cost row with a fee books the fee: an allowable cost of the disposal, and the fee token disposed of', async () => {
    const text = [
      TEMPLATE('Label'),
      '2025-06-01 10:00:00 UTC,1000,GBP,10,TAO,,,,,,,',
      '2025-06-05 10:00:00 UTC,1,TAO,,,0.01,TAO,300,GBP,cost,,',
    ].join('\n');
    const report = await reportWithFiles({ records: { 'k.csv': text } });
    // 1 TAO spent for £300, its fee 0.01 TAO valued at the row's £300 a TAO: £3, allowed on the disposal and
    // itself a disposal of 0.01 TAO for £3. One UK day: 1.01 TAO for £303; cost £101 of pool + £3 fee.
    expect(
      report.disposals.map(
        (d) => `${d.quantity} £${pence(d.proceeds)} £${pence(d.cost)} fees £${pence(d.fees)}`,
      ),
    ).toEqual(['1.01 £303.00 £104.00 fees £3.00']);
  });

  it("reads Koinly's own transaction export as what it is: trades, rewards, transfers; money skipped and listed", () => {
    const text = [
      EXPORT_HEADER,
      '2025-06-01 09:00:00 UTC,fiat_deposit,,,,,,Kraken,1000,GBP,,,,,1000,,,,,',
      '2025-06-01 10:00:00 UTC,buy,,Kraken,1000,GBP,,Kraken,10,TAO,,5,GBP,,1000,5,,,0xa,',
      '2025-06-02 10:00:00 UTC,crypto_deposit,reward,,,,,Kraken,0.1,TAO,,,,,30,,,,0xb,',
      '2025-06-03 10:00:00 UTC,transfer,,Kraken,5,TAO,,Ledger,4.999,TAO,,0.001,TAO,,1500,0.3,,,0xc,',
      '2025-06-04 10:00:00 UTC,exchange,,Ledger,2,TAO,,Ledger,80,SN12-ALPHA,,,,,600,,,,0xd,',
      '2025-06-05 10:00:00 UTC,crypto_withdrawal,lost,Ledger,0.5,TAO,,,,,,,,,150,,,,0xe,',
    ].join('\n');
    const read = readCustomerFiles([upload('koinly-transactions.csv', text)]);
    expect(read.files.map((f) => f.format)).toEqual(['koinly-transactions']);
    expect(read.records.map(shown)).toEqual([
      '3 buy 10 TAO £1000 fee 5 GBP £5 @Kraken',
      '4 income 0.1 TAO £30 @Kraken',
      '5 withdrawal 5 TAO £1500 fee 0.001 TAO £0.3 @Kraken',
      '5 deposit 4.999 TAO £1500 @Ledger',
      '6 sell 2 TAO £600 @Ledger',
      '6 buy 80 SN12-ALPHA £600 @Ledger',
      '7 sell 0.5 TAO £0 @Ledger',
    ]);
    expect(read.notes?.map((n) => `${n.file} ${n.line} ${n.text}`)).toEqual([
      'koinly-transactions.csv 2 a deposit of GBP (money, not a token): skipped, as it changes no pool',
    ]);
  });

  it('refuses a transaction export in another currency, saying which file to download', () => {
    const text = [
      EXPORT_HEADER.replace(/\(GBP\)/g, '(USD)'),
      '2025-06-01 10:00:00 UTC,buy,,Kraken,1000,USD,,Kraken,10,TAO,,,,,1000,,,,0xa,',
    ].join('\n');
    const [problem] = problems('koinly-transactions.csv', text);
    expect(problem?.line).toBe(1);
    expect(problem?.reason).toContain('gives its values in USD');
    expect(problem?.reason).toContain("download Koinly's universal import template");
  });

  it('refuses a transaction type it does not know, with its line', () => {
    const text = [
      EXPORT_HEADER,
      '2025-06-01 10:00:00 UTC,margin_trade,,Kraken,1,TAO,,,,,,,,,300,,,,0xa,',
    ].join('\n');
    expect(problems('k.csv', text).map((p) => `${p.line} ${p.column} ${p.reason.slice(0, 40)}`)).toEqual([
      '2 Type "margin_trade" is not a Koinly transacti',
    ]);
  });
});
