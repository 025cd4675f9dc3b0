/**
 * The pack's shortcuts give what the long way gives, on the demo coldkey's record served by the sandbox
 * and published by the real pipeline:
 *   - each block's actions treated while the stake reads arrive, in whatever order they arrive, are the
 *     treatments `cgtTransactions` makes after the last read; a block whose actions changed since is treated
 *     again;
 *   - each UK day's income worked out while the reads arrive is the income ledger's rows of that day, netted
 *     as the ledger nets them, and its transactions the record's of that day; a day an action is found in
 *     later is worked out again;
 *   - a record the buyer added nothing to stands as the chain's transactions, as combining it with nothing
 *     gives (sorted, every shortfall covered once);
 *   - income.csv's and events.csv's lines made while the reads arrive (each day's income, each treated block's
 *     events) are the files made after them; a day or block the ledger changed since is made again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EconomicAction } from '../../../pipeline/tax/chain-record/actions/economic-action.js';
import {
  comparePositions,
  type PositionRef,
  positionId,
} from '../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { touchedPositions } from '../../../pipeline/tax/chain-record/touched-positions.js';
import {
  computeTaxYearLedger,
  type LedgerHooks,
  type TaxYearLedger,
} from '../../../pipeline/tax/products/compute-tax-year.js';
import { incomeDaysAhead } from '../../../pipeline/tax/products/income-days-ahead.js';
import {
  chainRecordAlone,
  combineOwnRecords,
} from '../../../pipeline/tax/products/own-records/combine-own-records.js';
import { EMPTY_CUSTOMER_INPUTS } from '../../../pipeline/tax/products/own-records/customer-inputs.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import {
  EventLines,
  eventsCsv,
  IncomeLines,
  incomeCsv,
} from '../../../pipeline/tax/products/pack/pack-csv.js';
import { type PackInputs, readPackInputs } from '../../../pipeline/tax/products/pack/pack-inputs.js';
import { treatBlocksAhead } from '../../../pipeline/tax/products/treat-blocks-ahead.js';
import {
  type CgtMappingInput,
  cgtTransactions,
} from '../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { incomeLedger, netAcrossHotkeys } from '../../../pipeline/tax/uk-rules/income-ledger.js';
import { sharedPackWorld } from '../../support/shared-pack-world.js';
import type { PackWorld } from './pack/pack-world.js';

let world: PackWorld;
let chain: PackChain;
let ledger: TaxYearLedger;
let actions: EconomicAction[];
let inputs: PackInputs;

beforeAll(async () => {
  world = await sharedPackWorld({ genesis: new Date('2026-01-01T00:00:00Z'), historyDays: 16 });
  chain = openPackChain(world.devnet.url);
  const order = {
    id: 'ord_shortcuts',
    sku: 'tax-pack',
    packName: 'UK staking tax pack',
    taxYear: '2025/26',
    coldkeys: [world.devnet.demoColdkey],
    paidAt: new Date('2026-01-20T09:00:00Z'),
  };
  inputs = await readPackInputs(world.store, order);
  ledger = await computeTaxYearLedger(inputs, order.coldkeys, await chain.reader());
  actions = ledger.recordEvents.map((treated) => treated.action);
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

/** The record's chain transactions worked out from its reads (income left out: its shortfalls covered). */
const mappingInput = (list: readonly EconomicAction[]): CgtMappingInput => ({
  coldkeys: new Set(ledger.coldkeys),
  opening: ledger.recordOpening,
  actions: list,
  income: [],
  days: [...ledger.days, ...ledger.following],
  positions: ledger.positions,
  stakes: ledger.stakes,
  prices: ledger.prices,
});

/** Every read of the record handed over in the order given. */
function treatedAhead(list: readonly EconomicAction[], blocks: readonly number[]) {
  const ahead = treatBlocksAhead(list, ledger.prices);
  for (const block of blocks) ahead.onRead(ledger.stakes.get(block)!);
  return ahead.treated;
}

describe('actions treated while the reads arrive', () => {
  it('are the treatments made after the last read, whatever order the reads came in', () => {
    const actionBlocks = new Set(actions.map((action) => action.block));
    expect(actionBlocks.size).toBeGreaterThan(5);
    const blocks = [...ledger.stakes.keys()].sort((a, b) => a - b);
    const forward = treatedAhead(actions, blocks);
    // Out of order, as 32 reads in flight come back: the last block first, the others interleaved.
    const backward = treatedAhead(actions, outOfOrder(blocks));
    // Every block with actions was treated ahead but those of a limit order or a key swap (the demo
    // coldkey's record has limit orders), which are settled from all the reads and treated after them.
    const settledLater = new Set(
      actions.filter((a) => a.kind === 'limit-order' || a.swap !== undefined).map((a) => a.block),
    );
    expect(settledLater.size).toBeGreaterThan(0);
    const expected = [...actionBlocks].filter((block) => !settledLater.has(block)).sort((a, b) => a - b);
    expect([...forward.keys()].sort((a, b) => a - b)).toEqual(expected);
    expect([...backward.keys()].sort((a, b) => a - b)).toEqual(expected);

    const after = cgtTransactions(mappingInput(actions));
    const withAhead = cgtTransactions({ ...mappingInput(actions), treated: backward });
    expect(withAhead.events).toEqual(after.events);
    expect(withAhead.transactions).toEqual(after.transactions);
    expect(withAhead.flags).toEqual(after.flags);
    // The treatments made ahead were the ones used.
    const first = [...backward.values()][0]!;
    expect(withAhead.events).toContain(first.events[0]);
  });

  it('a block whose actions changed after it was treated is treated again', () => {
    const blocks = [...ledger.stakes.keys()];
    const ahead = treatedAhead(actions, blocks);
    // A block's first action taken away after the reads (as a move found later adds one to its block).
    const block = actions.find((action) => ahead.get(action.block)!.events.length > 0)!.block;
    const changed = actions.filter((action) => action !== actions.find((a) => a.block === block));
    const again = cgtTransactions({ ...mappingInput(changed), treated: ahead });
    const fresh = cgtTransactions(mappingInput(changed));
    expect(again.events).toEqual(fresh.events);
    expect(again.transactions).toEqual(fresh.transactions);
    expect(again.events.length).toBe(changed.length);
  });
});

/** The reads in the order 32 in flight can bring them: every other block from the last, then the rest. */
function outOfOrder(blocks: readonly number[]): number[] {
  const sorted = [...blocks].sort((a, b) => a - b);
  return [...sorted.filter((_, i) => i % 2 === 1).reverse(), ...sorted.filter((_, i) => i % 2 === 0)];
}

describe('each day’s income worked out while the reads arrive', () => {
  const days = () => [...ledger.days, ...ledger.following];
  /** The income ledger after the last read: every position any read or action names, every day at once. */
  const longWay = () => {
    const positions = new Map<string, PositionRef>();
    for (const read of ledger.stakes.values())
      for (const position of read.held) positions.set(positionId(position), position);
    const eventBlocks = new Map<string, number[]>();
    for (const action of [...actions].sort((a, b) => a.block - b.block)) {
      const touched = touchedPositions(
        action,
        ledger.stakes.get(action.block - 1)!,
        ledger.stakes.get(action.block)!,
      );
      for (const [id, position] of touched) {
        positions.set(id, position);
        const listed = eventBlocks.get(id) ?? [];
        if (!listed.includes(action.block)) eventBlocks.set(id, [...listed, action.block]);
      }
    }
    const ordered = [...positions.values()].sort(comparePositions);
    return incomeLedger(ordered, ledger.opening, days(), ledger.stakes, eventBlocks, ledger.prices);
  };
  const workedAhead = () => {
    // No position asked for: those the day's reads report and its actions touch are all it needs.
    const ahead = incomeDaysAhead(ledger.opening, days(), actions, [], ledger.prices);
    for (const block of outOfOrder([...ledger.stakes.keys()])) ahead.onRead(ledger.stakes.get(block)!);
    return ahead;
  };

  it('is the ledger’s rows of that day and their netting, whatever order the reads came in', () => {
    // The record opens at the year's opening (no day before the year to leave out of `days`).
    expect(ledger.opening.block).toBe(ledger.recordOpening.block);
    const rows = longWay();
    expect(rows.length).toBeGreaterThan(50);
    const ahead = workedAhead();
    // The days with a limit order or a key swap are left to after the reads; the demo coldkey has some.
    const dayOf = (block: number) =>
      days().find((day, i) => block <= day.block && block > (days()[i - 1] ?? ledger.opening).block)!.date;
    const settledLater = new Set(
      actions.filter((a) => a.kind === 'limit-order' || a.swap !== undefined).map((a) => dayOf(a.block)),
    );
    expect(settledLater.size).toBeGreaterThan(0);
    expect([...ahead.days.keys()].sort()).toEqual(
      days()
        .map((day) => day.date)
        .filter((date) => !settledLater.has(date)),
    );
    for (const [date, day] of ahead.days) {
      const ofDay = rows.filter((row) => row.date === date);
      expect(day.rows).toEqual(ofDay);
      const netted = netAcrossHotkeys(ofDay);
      expect(day.netted).toEqual(netted.rows);
      expect(day.moves).toEqual(netted.moves);
    }
    // The pack's own ledger (worked out ahead where it could) nets to the same year's income.
    const year = netAcrossHotkeys(rows).rows.filter(
      (row) => row.date > ledger.opening.date && row.date <= ledger.days[ledger.days.length - 1]!.date,
    );
    expect(ledger.income).toEqual(year);
  });

  it('as transactions, is the record’s income transactions and flags, unless a day’s rows changed', () => {
    const ahead = workedAhead();
    // Each day worked out while the reads arrived has its transactions made then.
    const made = ahead.transactions;
    expect(made.size).toBe(ahead.days.size);
    const income = days().flatMap((day) => ahead.days.get(day.date)?.netted ?? []);
    expect(income.length).toBeGreaterThan(50);
    const input = { ...mappingInput(actions), income };
    const after = cgtTransactions(input);
    const withAhead = cgtTransactions({ ...input, incomeAhead: made });
    expect(withAhead.transactions).toEqual(after.transactions);
    expect(withAhead.flags).toEqual(after.flags);
    // The transactions made ahead were the ones used.
    const first = [...made.values()].find((day) => day.transactions.length > 0)!.transactions[0]!;
    expect(withAhead.transactions).toContain(first);
    // A day's row changed after it was made (new objects, other figures): the record's income made again.
    const changed = [...income];
    changed[3] = { ...changed[3]!, alphaRao: changed[3]!.alphaRao + 1_000_000_000n };
    const again = cgtTransactions({ ...input, income: changed, incomeAhead: made });
    expect(again.transactions).toEqual(cgtTransactions({ ...input, income: changed }).transactions);
    expect(again.transactions).not.toEqual(after.transactions);
  });

  it('forgets a day an action is found in later, and only that day', () => {
    const ahead = workedAhead();
    const [date] = [...ahead.days.keys()];
    const day = days().find((d) => d.date === date)!;
    const worked = ahead.days.size;
    ahead.forget([day.block]);
    expect(ahead.days.has(date!)).toBe(false);
    expect(ahead.days.size).toBe(worked - 1);
  });
});

describe('a record the buyer added nothing to', () => {
  it('is the chain’s transactions as combining them with nothing gives', () => {
    const mapping = cgtTransactions(mappingInput(actions));
    // Income left out, the record's alpha disposals outrun what it shows acquired: shortfalls were covered.
    expect(mapping.transactions.some((tx) => tx.kind === 'unexplained')).toBe(true);
    const combined = combineOwnRecords(mapping, EMPTY_CUSTOMER_INPUTS, new Date(ledger.recordOpening.timeMs));
    const alone = chainRecordAlone(mapping);
    expect(alone.transactions).toEqual(combined.transactions);
    expect(alone.flags).toEqual(combined.flags);
    expect(alone.ownTransfers).toEqual(combined.ownTransfers);
    expect(alone.unmatchedRecords).toEqual(combined.unmatchedRecords);
    expect(alone.opening).toBe(combined.opening);
  });
});

describe('income.csv and events.csv lines made while the reads arrive', () => {
  /** The ledger computed again, each day's income and each treated block's events told as they are made. */
  const withLinesAhead = async () => {
    const incomeLines = new IncomeLines(inputs.subnetNames);
    const eventLines = new EventLines();
    const told = { days: 0, blocks: 0 };
    const hooks: LedgerHooks = {
      onIncomeDay: (date, rows) => {
        told.days += 1;
        incomeLines.prepareDay(date, rows);
      },
      onBlockTreated: (block) => {
        told.blocks += 1;
        eventLines.prepareBlock(block.events);
      },
    };
    const made = await computeTaxYearLedger(
      inputs,
      ledger.coldkeys,
      await chain.reader(),
      undefined,
      undefined,
      undefined,
      hooks,
    );
    return { made, incomeLines, eventLines, told };
  };

  it('are the files made after the last read', async () => {
    const { made, incomeLines, eventLines, told } = await withLinesAhead();
    expect(told.days).toBeGreaterThan(10);
    expect(told.blocks).toBeGreaterThan(5);
    // Most of the year's days were kept as worked out (the demo coldkey's limit-order days were not).
    const dates = [...new Set(made.income.map((row) => row.date))];
    const kept = dates.filter((date) =>
      incomeLines.preparedDay(
        date,
        made.income.filter((row) => row.date === date),
      ),
    );
    expect(kept.length).toBeGreaterThan(dates.length / 2);
    expect(incomeCsv(made, inputs.subnetNames, incomeLines)).toBe(incomeCsv(made, inputs.subnetNames));
    expect(eventsCsv(made, eventLines)).toBe(eventsCsv(made));
    // The same files as the ledger computed without the hooks.
    expect(incomeCsv(made, inputs.subnetNames, incomeLines)).toBe(incomeCsv(ledger, inputs.subnetNames));
    expect(eventsCsv(made, eventLines)).toBe(eventsCsv(ledger));
  });

  it('a day or block the ledger changed after its lines were made is written as it now is', async () => {
    const { made, incomeLines, eventLines } = await withLinesAhead();
    // One kept day's first row and one prepared block's first event changed (new objects, other figures),
    // as a move found on the chain later gives new rows and treatments.
    const date = made.income.find((row) =>
      incomeLines.preparedDay(
        row.date,
        made.income.filter((r) => r.date === row.date),
      ),
    )!.date;
    const at = made.income.findIndex((row) => row.date === date);
    const income = [...made.income];
    income[at] = { ...income[at]!, alphaRao: income[at]!.alphaRao + 1n };
    const eventAt = made.mapping.events.findIndex((treated) => treated.treatment.length > 0);
    const events = [...made.mapping.events];
    events[eventAt] = { ...events[eventAt]!, treatment: 'changed after the reads' };
    const changed: TaxYearLedger = { ...made, income, mapping: { ...made.mapping, events } };

    const incomeText = incomeCsv(changed, inputs.subnetNames, incomeLines);
    expect(incomeText).toBe(incomeCsv(changed, inputs.subnetNames));
    expect(incomeText).not.toBe(incomeCsv(made, inputs.subnetNames));
    const eventsText = eventsCsv(changed, eventLines);
    expect(eventsText).toBe(eventsCsv(changed));
    expect(eventsText).toContain('changed after the reads');
  });
});
