/**
 * Issue 35 on the sandbox's spec 473 (mainnet since October 2026): the V1 share maps are gone and the
 * upgrade's AlphaV2 migration sweeps small positions, deleting dust with no event naming its holder and
 * unstaking small legacy positions to their coldkeys; the demo coldkey's spec-425 life happened before
 * it. The pack, built over the real WebSocket from what the real pipeline published, is held against the
 * sandbox's truth: income per position and UK day to the RAO, every swept position booked as the migration's
 * disposal, nothing about it left unexplained, and the gains engine rerun on cgt-input.csv gives the pack's
 * disposals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTruth, type Truth } from '../../../../pipeline/devnet/index.js';
import { type BuiltPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { GbpPrices } from '../../../../pipeline/tax/uk-rules/gbp-prices.js';
import { gbpOfTaoRao } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { addDays, eachDay } from '../../../../pipeline/time/utc-day.js';
import { rerunCgtInput } from './cgt-rerun.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-01-01T00:00:00Z');
const HISTORY_DAYS = 30;
const BLOCK_MS = 600_000;
// The sandbox's default world (today's chain): spec 425 and 473 placed by the sandbox, 473 at noon three days
// before today and 425 six days before that, so the demo coldkey's life, the sweep (which takes its untouched
// legacy positions before its coldkey swap) and the limit orders all fall in the record and the tax year.
const TAX_YEAR = '2025/26';
/** The tax year's UK days (6 April 2025 to 5 April 2026, Europe/London). */
const YEAR_FIRST_DAY = '2025-04-06';
const YEAR_LAST_DAY = '2026-04-05';

/**
 * The UK days the pack's income must cover, from what the test knows, not from the pack: the tax year's days
 * that the record collected, from the day after genesis (the record opens at the end of its first day:
 * holdings, not income) to the last whole UK day before the world's clock (today is partial, not in the
 * pack). A winter world: UK days are UTC days.
 */
function incomeWindow(nowMs: number): string[] {
  const first = addDays(GENESIS.toISOString().slice(0, 10), 1);
  const last = addDays(ukDay(nowMs), -1);
  return eachDay(first, last).filter((day) => day >= YEAR_FIRST_DAY && day <= YEAR_LAST_DAY);
}

let world: PackWorld;
let chain: PackChain;
let truth: Truth;
let pack: BuiltPack;
let files: Map<string, string>;
let demo: string;

beforeAll(async () => {
  world = await publishPackWorld({
    genesis: GENESIS,
    historyDays: HISTORY_DAYS,
    blockTimeMs: BLOCK_MS,
  });
  chain = openPackChain(world.devnet.url);
  demo = world.devnet.demoColdkey;
  const finalizedNow = world.nowMs - world.options.finalityLag * BLOCK_MS;
  truth = buildTruth(
    { ...world.options, now: () => finalizedNow },
    GENESIS.toISOString().slice(0, 10),
    new Date(world.nowMs).toISOString().slice(0, 10),
  );
  pack = await buildPackFiles(
    {
      id: 'ord_latest',
      sku: 'tax-pack',
      packName: 'UK staking tax pack',
      taxYear: TAX_YEAR,
      coldkeys: [demo],
      paidAt: new Date('2026-02-01T09:30:00Z'),
    },
    { store: world.store, chain: chain.reader },
  );
  files = new Map([...pack.files].map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
}, 600_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

/**
 * The swept positions of the pack's coldkeys (the demo and its successor) that held alpha, from the truth (the
 * sweep also deletes rows worth nothing: a zero-stake position, nothing to book).
 */
const sweptOf = (built: BuiltPack) =>
  truth.alpha_v2_sweep.filter((s) => built.inputs.coldkeys.includes(s.coldkey) && BigInt(s.alpha_rao) > 0n);
const sweptOfOrder = () => sweptOf(pack);
const treatmentsOf = (built: BuiltPack, block: number) =>
  built.ledger.mapping.events.filter((t) => t.action.block === block);
const treatmentsAt = (block: number) => treatmentsOf(pack, block);

describe('the pack on spec 473', () => {
  it('runs on a chain whose head is spec 473 and whose sweep took positions of the demo coldkey', async () => {
    const reader = await chain.reader();
    const head = await reader.finalizedHead();
    expect(await reader.specVersionOfBlock(head.number)).toBe(473);
    const spec473Block = truth.latest_runtime_block!;
    const spec425Block = truth.current_runtime_block!;
    expect(await reader.specVersionOfBlock(spec473Block - 1)).toBe(425);
    expect(await reader.specVersionOfBlock(spec425Block - 1)).toBe(393);
    expect(await reader.specVersionOfBlock(truth.upgrade_block - 1)).toBe(343);
    const kinds = new Set(sweptOfOrder().map((s) => s.kind));
    expect(kinds).toEqual(new Set(['deleted', 'unstaked']));
  });

  it('has income per UK day and position equal to the truth, exactly in RAO', () => {
    const income = readCsv(files.get('income.csv')!);
    const packed = new Map(
      income.map((row) => [
        `${row['coldkey']}|${row['date']}|${row['hotkey']}|${row['netuid']}`,
        raoOf(row['alpha']!),
      ]),
    );
    const window = incomeWindow(world.nowMs);
    // 2 to 30 January 2026: the world's clock stands at 15:00 on 31 January.
    expect([window[0], window.at(-1), window.length]).toEqual(['2026-01-02', '2026-01-30', 29]);
    // The pack's days are those days, no fewer and no more.
    expect(pack.ledger.days.map((d) => d.date)).toEqual(window);
    const expected = new Map<string, bigint>();
    for (const coldkey of truth.coldkeys.filter((c) => pack.inputs.coldkeys.includes(c.coldkey))) {
      for (const day of coldkey.days) {
        if (!window.includes(day.date)) continue;
        for (const p of day.income)
          expected.set(`${coldkey.coldkey}|${day.date}|${p.hotkey}|${p.netuid}`, BigInt(p.alpha_rao));
      }
    }
    expect(expected.size).toBeGreaterThan(0);
    // Income on every day of the window (the last day's too), then every position to the RAO.
    expect([...new Set([...expected.keys()].map((key) => key.split('|')[1]))].sort()).toEqual(window);
    expect(new Map([...packed].sort())).toEqual(new Map([...expected].sort()));
  });

  it('books every position the migration deleted as a disposal for nothing, named in events.csv with its block', () => {
    const deleted = sweptOfOrder().filter((s) => s.kind === 'deleted');
    expect(deleted.length).toBeGreaterThan(0);
    const rows = readCsv(files.get('events.csv')!);
    for (const swept of deleted) {
      const treated = treatmentsAt(swept.block).filter(
        (t) =>
          t.action.kind === 'sweep' && t.event.hotkey === swept.hotkey && t.event.netuid === swept.netuid,
      );
      expect(treated, `${swept.coldkey} ${swept.hotkey} ${swept.netuid} at ${swept.block}`).toHaveLength(1);
      const [disposal, ...rest] = treated[0]!.transactions;
      expect(rest).toEqual([]);
      expect([disposal!.action, disposal!.gbp.toFixed(), raoOf(disposal!.quantity.toFixed())]).toEqual([
        'dispose',
        '0',
        BigInt(swept.alpha_rao),
      ]);
      const row = rows.find(
        (r) =>
          r['block'] === String(swept.block) &&
          r['kind'] === 'AlphaV2Migration' &&
          r['hotkey'] === swept.hotkey &&
          r['netuid'] === String(swept.netuid),
      );
      expect(row?.['treatment']).toContain("the chain's AlphaV2 migration");
      expect(row?.['chain_events']).toBe(`AlphaV2Migration ${swept.block}`);
    }
  });

  it('books every position the migration unstaked as a disposal for the TAO paid, named as the migration', async () => {
    // The demo coldkey's swept positions are all on subnets; the sandbox's one root holder's are on root: its
    // own pack holds the root leg.
    const rootHolder = truth.alpha_v2_sweep.find((s) => s.netuid === 0 && s.kind === 'unstaked')?.coldkey;
    expect(rootHolder).toBeDefined();
    const rootPack = await buildPackFiles(
      {
        id: 'ord_latest_root',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: TAX_YEAR,
        coldkeys: [rootHolder!],
        paidAt: new Date('2026-02-01T09:30:00Z'),
      },
      { store: world.store, chain: chain.reader },
    );
    const checked = { root: 0, alpha: 0 };
    for (const built of [pack, rootPack]) {
      const unstaked = sweptOf(built).filter((s) => s.kind === 'unstaked');
      expect(unstaked.length, built.inputs.coldkeys.join(' ')).toBeGreaterThan(0);
      for (const swept of unstaked) {
        const where = `${swept.coldkey} ${swept.hotkey} ${swept.netuid} at ${swept.block}`;
        const mine = treatmentsOf(built, swept.block)
          .filter((t) => t.action.kind === 'unstake')
          .find((t) =>
            t.action.events.some(
              (e) => e.kind === 'StakeRemoved' && e.hotkey === swept.hotkey && e.netuid === swept.netuid,
            ),
          );
        expect(mine, where).toBeDefined();
        expect(mine!.treatment).toContain("the chain's AlphaV2 migration");
        // The event the pack read is the truth's, at its amounts.
        const removed = mine!.action.events.find((e) => e.event_index === swept.event_index)!;
        expect([removed.kind, removed.tao_rao, removed.alpha_rao], where).toEqual([
          'StakeRemoved',
          swept.tao_rao,
          swept.alpha_rao,
        ]);
        const sides = mine!.transactions.map((tx) => [
          tx.action,
          tx.asset.split(':')[0],
          raoOf(tx.quantity.toFixed()),
        ]);
        if (swept.netuid === 0) {
          // Root stake is TAO: paid out as TAO one for one, nothing changes hands.
          expect(BigInt(swept.tao_rao), where).toBe(BigInt(swept.alpha_rao));
          expect(sides, where).toEqual([]);
          checked.root++;
        } else {
          const price = new GbpPrices(built.inputs.fiat).on(swept.time.slice(0, 10))!;
          expect(sides, where).toEqual([
            ['dispose', 'alpha', BigInt(swept.alpha_rao)],
            ['acquire', 'TAO', BigInt(swept.tao_rao)],
          ]);
          expect(mine!.transactions[0]!.gbp.toFixed(), where).toBe(
            gbpOfTaoRao(BigInt(swept.tao_rao), price).toFixed(),
          );
          checked.alpha++;
        }
      }
    }
    // Both legs were held to the truth: the subnet one (alpha given for TAO at its value) and the root one.
    expect(checked.alpha).toBeGreaterThan(0);
    expect(checked.root).toBeGreaterThan(0);
  });

  it('books each limit order of the batch as its own exchange at the order\u2019s amounts, with no transfer flagged', () => {
    const orders = truth.actions.filter(
      (a) => a.action === 'limit-order-buy' || a.action === 'limit-order-sell',
    );
    expect(orders.map((a) => a.action).sort()).toEqual(['limit-order-buy', 'limit-order-sell']);
    for (const order of orders) {
      expect(pack.inputs.coldkeys).toContain(order.coldkey);
      const treated = treatmentsAt(order.block).filter(
        (t) =>
          t.action.kind === 'limit-order' && t.action.events.some((e) => e.event_index === order.event_index),
      );
      expect(treated, `${order.action} at ${order.block}/${order.event_index}`).toHaveLength(1);
      const sides = treated[0]!.transactions.map((tx) => [
        tx.action,
        tx.asset.split(':')[0],
        raoOf(tx.quantity.toFixed()),
      ]);
      const price = new GbpPrices(pack.inputs.fiat).on(order.time.slice(0, 10))!;
      if (order.action === 'limit-order-buy') {
        // TAO given (gross, the order's fee inside it), the alpha received on the order's hotkey.
        expect(sides).toEqual([
          ['dispose', 'TAO', BigInt(order.tao_rao!)],
          ['acquire', 'alpha', BigInt(order.alpha_rao!)],
        ]);
      } else {
        // The alpha sold, the TAO received after the order's fee.
        expect(sides).toEqual([
          ['dispose', 'alpha', BigInt(order.alpha_rao!)],
          ['acquire', 'TAO', BigInt(order.tao_rao!)],
        ]);
      }
      expect(treated[0]!.transactions[0]!.gbp.toFixed()).toBe(
        gbpOfTaoRao(BigInt(order.tao_rao!), price).toFixed(),
      );
    }
    const day = orders[0]!.time.slice(0, 10);
    for (const flag of pack.ledger.mapping.flags.filter((f) => f.date === day)) {
      expect(flag.kind, flag.text).not.toMatch(/^transfer-/);
    }
  });

  it('leaves nothing about the sweep unexplained, and no zero-stake position in the income', () => {
    const sweepDays = new Set(sweptOfOrder().map((s) => s.time.slice(0, 10)));
    for (const flag of pack.ledger.mapping.flags) {
      if (!sweepDays.has(flag.date)) continue;
      expect(flag.kind, flag.text).not.toBe('unexplained');
    }
    // A position with no stake received nothing: no row, whatever its £ value says.
    const income = readCsv(files.get('income.csv')!);
    expect(income.length).toBeGreaterThan(0);
    expect(income.filter((row) => raoOf(row['alpha']!) === 0n)).toEqual([]);
  });

  it('is the same record when ordered for the successor coldkey the sandbox prints today', async () => {
    const successor = world.devnet.holderColdkey;
    expect(successor).not.toBe(demo);
    const fromSuccessor = await buildPackFiles(
      {
        id: 'ord_latest_successor',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: TAX_YEAR,
        coldkeys: [successor],
        paidAt: new Date('2026-02-01T09:30:00Z'),
      },
      { store: world.store, chain: chain.reader },
    );
    expect(fromSuccessor.inputs.coldkeys).toEqual([successor, demo]);
    const text = (built: BuiltPack, name: 'income.csv' | 'disposals.csv' | 'cgt-input.csv') =>
      new TextDecoder().decode(built.files.get(name)!);
    for (const name of ['income.csv', 'disposals.csv', 'cgt-input.csv'] as const) {
      const sorted = (csv: string) => csv.trim().split('\n').slice(1).sort();
      expect(sorted(text(fromSuccessor, name)), name).toEqual(sorted(files.get(name)!));
    }
  });

  it('gives sbm tax cgt exactly its disposals from cgt-input.csv', () => {
    const { fromPack, rerun } = rerunCgtInput(files, TAX_YEAR);
    expect(fromPack.length).toBeGreaterThan(0);
    expect(rerun).toEqual(fromPack);
  });
});
