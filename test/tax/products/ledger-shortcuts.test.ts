/**
 * The pack's two shortcuts give what the long way gives, on the demo coldkey's record served by the sandbox
 * and published by the real pipeline:
 *   - each block's actions treated while the stake reads arrive, in whatever order they arrive, are the
 *     treatments `cgtTransactions` makes after the last read; a block whose actions changed since is treated
 *     again;
 *   - a record the buyer added nothing to stands as the chain's transactions, as combining it with nothing
 *     gives (sorted, every shortfall covered once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EconomicAction } from '../../../pipeline/tax/chain-record/actions/economic-action.js';
import { computeTaxYearLedger, type TaxYearLedger } from '../../../pipeline/tax/products/compute-tax-year.js';
import {
  chainRecordAlone,
  combineOwnRecords,
} from '../../../pipeline/tax/products/own-records/combine-own-records.js';
import { EMPTY_CUSTOMER_INPUTS } from '../../../pipeline/tax/products/own-records/customer-inputs.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/products/pack/pack-chain.js';
import { readPackInputs } from '../../../pipeline/tax/products/pack/pack-inputs.js';
import { treatBlocksAhead } from '../../../pipeline/tax/products/treat-blocks-ahead.js';
import {
  type CgtMappingInput,
  cgtTransactions,
} from '../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { sharedPackWorld } from '../../support/shared-pack-world.js';
import type { PackWorld } from './pack/pack-world.js';

let world: PackWorld;
let chain: PackChain;
let ledger: TaxYearLedger;
let actions: EconomicAction[];

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
  const inputs = await readPackInputs(world.store, order);
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
    const shuffled = [
      ...blocks.filter((_, i) => i % 2 === 1).reverse(),
      ...blocks.filter((_, i) => i % 2 === 0),
    ];
    const backward = treatedAhead(actions, shuffled);
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
