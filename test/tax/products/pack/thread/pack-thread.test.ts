/**
 * A big pack's gains and exports (`cgt-input.csv`, `bittytax.csv`, `koinly.csv`) are made on a second thread: a
 * buyer must get the same figures and bytes as from the build's own thread, with every part of a revised pack's
 * inputs carried across (their own records, an address named as theirs, last year's 30-day matches, a deposit
 * that matched nothing); the same when the record cannot cross; the same refusal when the engine refuses it.
 * Its `positions.csv`, rendered from the stakes as soon as the chain is read, is the build thread's too.
 */
import { Decimal } from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { combineOwnRecords } from '../../../../../pipeline/tax/products/own-records/combine-own-records.js';
import { readCustomerFiles } from '../../../../../pipeline/tax/products/own-records/read-customer-files.js';
import {
  EXPORT_FILE_NAMES,
  type ExportFilesInput,
  renderExportFiles,
} from '../../../../../pipeline/tax/products/pack/exports/export-files.js';
import type { ExportEvent } from '../../../../../pipeline/tax/products/pack/exports/export-records.js';
import { type PositionDays, positionsFile } from '../../../../../pipeline/tax/products/pack/positions-csv.js';
import { PackThread } from '../../../../../pipeline/tax/products/pack/thread/pack-thread.js';
import { CgtDecimal } from '../../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { CgtInputError, type CgtReport } from '../../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../../../pipeline/tax/uk-rules/cgt/compute-gains.js';
import { readCgtCsv } from '../../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js';
import { readCsv } from '../read-pack-csv.js';

/** The exchange's deposit address, named by the buyer as theirs (a well-known development key). */
const EXCHANGE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
/** An address the buyer did not name. */
const STRANGER = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const ALPHA = 'alpha:12:100';
const OPENING_AT = new Date('2026-04-05T22:59:00.000Z');

/** The chain record as a pack writes it to `cgt-input.csv`. */
const CHAIN = [
  'datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty',
  '2026-04-05T22:59:00.000Z,TAO,acquire,5,1500,,opening,',
  `2026-04-10T22:00:00.000Z,${ALPHA},acquire,3,21.5,,income,`,
  `2026-04-10T22:00:00.000Z,TAO,acquire,3,900,,transfer-in,${STRANGER}`,
  `2026-05-10T12:00:00.000Z,TAO,acquire,10,3000,,transfer-in,${EXCHANGE}`,
  '2026-05-11T12:00:00.000Z,TAO,dispose,5,1550,,,',
  `2026-05-11T12:00:00.000Z,${ALPHA},acquire,250,1550,,,`,
  `2026-07-02T12:00:00.000Z,TAO,dispose,1,350.12345678,,transfer-out,${STRANGER}`,
].join('\n');

/** The exchange's Koinly export: a buy with a pound fee, the withdrawal to the coldkey (fee in TAO), a sale, and a deposit from elsewhere. */
const KOINLY = [
  'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  '2026-04-20 10:00:00 UTC,1200.60,GBP,4.002,TAO,3,GBP,,,,buy,',
  '2026-05-10 11:30:00 UTC,10,TAO,,,0.002,TAO,3000,GBP,,withdrawal to my coldkey,',
  '2026-07-03 09:00:00 UTC,2,TAO,700,GBP,10,GBP,,,,sell,',
  '2026-08-01 09:00:00 UTC,,,1.5,TAO,,,,,,deposit,',
].join('\n');

const ADDRESSES = `address,label\n${EXCHANGE},Kraken deposit\n`;
/** Last year's pack's pools, with one TAO of 10 April's income already matched under the 30-day rule. */
const OPENING =
  'asset,quantity,cost_gbp,as_at,kind\nTAO,5,1400,2026-04-05,pool\nTAO,1,300,2026-04-10,matched-ahead\n';

function revisedInput(): ExportFilesInput {
  const chain = readCgtCsv(CHAIN);
  const customer = readCustomerFiles([
    { name: 'kraken-koinly.csv', bytes: new TextEncoder().encode(KOINLY), role: 'records' },
    { name: 'addresses.csv', bytes: new TextEncoder().encode(ADDRESSES), role: 'addresses' },
    { name: 'pools.csv', bytes: new TextEncoder().encode(OPENING), role: 'opening' },
  ]);
  const combined = combineOwnRecords({ transactions: chain, flags: [] }, customer, OPENING_AT);
  // The events the chain's rows came from, as the pack's mapping names them.
  const events: ExportEvent[] = [
    { transactions: [chain[2]!], treatment: 'TAO received from another address', action: { kind: 'tao-in' } },
    { transactions: [chain[3]!], treatment: 'TAO received from another address', action: { kind: 'tao-in' } },
    { transactions: [chain[4]!, chain[5]!], treatment: 'staked: TAO for alpha', action: { kind: 'stake' } },
    { transactions: [chain[6]!], treatment: 'TAO sent to another address', action: { kind: 'tao-out' } },
  ];
  return {
    transactions: combined.transactions,
    chainTransactions: chain,
    events,
    customer: combined,
    openingAt: OPENING_AT,
  };
}

/** A report as text, each decimal with its constructor (its precision) and its exact value. */
function reportText(report: CgtReport): string {
  return JSON.stringify(report, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    if (raw instanceof Decimal)
      return `${raw.constructor === CgtDecimal ? 'CgtDecimal' : 'Decimal'} ${raw.toFixed()}`;
    return value;
  });
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

let thread: PackThread | undefined;
afterEach(() => thread?.close());

describe("a pack's second thread", () => {
  it('makes the gains and the exports of a revised pack exactly as the build thread does', async () => {
    const input = revisedInput();
    // Every part of the buyer's inputs is there to cross.
    expect(input.customer.recordOf.size).toBeGreaterThan(0);
    expect(input.customer.originalOf.size).toBeGreaterThan(0);
    expect(input.customer.ownTransfers.length).toBeGreaterThan(0);
    expect(input.customer.unmatchedRecords.length).toBeGreaterThan(0);
    thread = new PackThread();
    // Each file is told as it comes, to be deflated while the next is rendered: the biggest first.
    const told: Array<[string, Uint8Array]> = [];
    const work = thread.work(input, (name, bytes) => told.push([name, bytes]));
    const gains = await work.gains;
    const { files, onThread } = await work.exports;
    expect([gains.onThread, onThread]).toEqual([true, true]);
    expect(told.map(([name]) => name)).toEqual(['bittytax.csv', 'koinly.csv', 'cgt-input.csv']);
    for (const [name, bytes] of told) expect(bytes).toBe(files[name as keyof typeof files]);
    const here = computeGains(input.transactions);
    expect(here.disposals.length).toBeGreaterThan(0);
    expect(reportText(gains.report)).toBe(reportText(here));
    const rendered = renderExportFiles(input);
    for (const name of EXPORT_FILE_NAMES) expect(sameBytes(files[name], rendered[name])).toBe(true);
    // And they say what the buyer expects: the move to their own wallet is a transfer pair, the deposit
    // that matched nothing is listed as it is, and the TAO received on 10 April, less what last year's 30-day
    // matches took, is still the deposit its event made.
    const bittytax = readCsv(new TextDecoder().decode(files['bittytax.csv']));
    expect(
      bittytax
        .filter((row) => row['Note']!.includes('a move between your own wallets'))
        .map((r) => r['Type']),
    ).toEqual(['Withdrawal', 'Deposit']);
    expect(
      bittytax.some((row) => row['Type'] === 'Deposit' && row['Note']!.includes('matched with no transfer')),
    ).toBe(true);
    const received = bittytax.filter(
      (row) => row['Timestamp']!.startsWith('2026-04-10T22') && row['Buy Asset'] === 'TAO',
    );
    expect(received.map((row) => [row['Type'], row['Buy Quantity']])).toEqual([['Deposit', '2']]);
    expect(readCsv(new TextDecoder().decode(files['cgt-input.csv']))).toHaveLength(7);
  });

  it('leaves both to the build thread, the same figures and bytes, when a decimal cannot cross', async () => {
    const input = revisedInput();
    const Other = Decimal.clone({ precision: 12 });
    const odd = { ...input.chainTransactions[1]!, quantity: new Other('3') };
    const changed = {
      ...input,
      chainTransactions: [input.chainTransactions[0]!, odd, ...input.chainTransactions.slice(2)],
    };
    thread = new PackThread();
    const work = thread.work(changed);
    const gains = await work.gains;
    const { files, onThread } = await work.exports;
    expect([gains.onThread, onThread]).toEqual([false, false]);
    expect(reportText(gains.report)).toBe(reportText(computeGains(changed.transactions)));
    const rendered = renderExportFiles(changed);
    for (const name of EXPORT_FILE_NAMES) expect(sameBytes(files[name], rendered[name])).toBe(true);
  });

  it('gives the refusal the build thread gives when the engine refuses the record, and still the exports', async () => {
    const input = revisedInput();
    const refused = { ...input.transactions[2]!, gbp: new CgtDecimal('-1'), ref: 'line 4' };
    const transactions = input.transactions.map((tx, i) => (i === 2 ? refused : tx));
    const changed = { ...input, transactions };
    const expected = (() => {
      try {
        computeGains(transactions);
      } catch (error) {
        return error as Error;
      }
      throw new Error('the engine took the record');
    })();
    expect(expected).toBeInstanceOf(CgtInputError);
    thread = new PackThread();
    const work = thread.work(changed);
    await expect(work.gains).rejects.toThrow(expected.message);
    await expect(work.gains).rejects.toBeInstanceOf(CgtInputError);
    expect((await work.exports).onThread).toBe(true);
  });

  it('renders positions.csv as the build thread does, and leaves it to the build thread when a stake cannot cross', async () => {
    // Three days of two positions: one held throughout, one taken up on the second day (a name with a comma
    // and a non-ASCII letter, quoted in the file), an amount of a whole 2^63 RAO and more.
    const table = (stakes: bigint[][]): PositionDays => ({
      days: [
        { date: '2026-04-05', block: 100 },
        { date: '2026-04-06', block: 200 },
        { date: '2026-04-07', block: 300 },
      ],
      positions: [
        { coldkey: '5Cold', hotkey: '5HotA', netuid: 0 },
        { coldkey: '5Cold', hotkey: '5HotB', netuid: 7 },
      ],
      stakeAt: (day, position) => stakes[day]![position]!,
    });
    const names = new Map([[7, 'Ñame, with a comma']]);
    const held = table([
      [1_500_000_000n, 0n],
      [1_500_000_001n, 2n ** 63n + 5n],
      [0n, 42n],
    ]);
    thread = new PackThread();
    const made = await thread.positions(held, names);
    expect(made.onThread).toBe(true);
    expect(sameBytes(made.bytes, positionsFile(held, names))).toBe(true);
    expect(
      readCsv(new TextDecoder().decode(made.bytes)).map((row) => [row['date'], row['subnet'], row['alpha']]),
    ).toEqual([
      ['2026-04-05', 'root', '1.5'],
      ['2026-04-06', 'root', '1.500000001'],
      ['2026-04-06', 'Ñame, with a comma', '9223372036.854775813'],
      ['2026-04-07', 'Ñame, with a comma', '0.000000042'],
    ]);
    // A negative stake (no chain has one) cannot cross as a 64-bit word: the build's thread renders it.
    const odd = table([
      [1n, 0n],
      [-1n, 0n],
      [0n, 0n],
    ]);
    const here = await thread.positions(odd, names);
    expect(here.onThread).toBe(false);
    expect(sameBytes(here.bytes, positionsFile(odd, names))).toBe(true);
  });

  it('gives two builds using the thread at once each their own gains and exports', async () => {
    const input = revisedInput();
    // A second record: the first without its last transaction (a different gain, different files).
    const shorter = {
      ...input,
      transactions: input.transactions.slice(0, -1),
      chainTransactions: input.chainTransactions.slice(0, -1),
    };
    const one = new PackThread();
    const other = new PackThread();
    try {
      const works = [one.work(input), other.work(shorter)];
      const made = await Promise.all(
        works.map(async (work) => [await work.gains, await work.exports] as const),
      );
      for (const [[gains, exports], record] of made.map((m, i) => [m, [input, shorter][i]!] as const)) {
        expect([gains.onThread, exports.onThread]).toEqual([true, true]);
        expect(reportText(gains.report)).toBe(reportText(computeGains(record.transactions)));
        const rendered = renderExportFiles(record);
        for (const name of EXPORT_FILE_NAMES)
          expect(sameBytes(exports.files[name], rendered[name])).toBe(true);
      }
      expect(sameBytes(made[0]![1].files['cgt-input.csv'], made[1]![1].files['cgt-input.csv'])).toBe(false);
    } finally {
      one.close();
      other.close();
    }
  });
});
