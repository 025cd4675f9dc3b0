/**
 * Issue 35 on the sandbox's spec 473 (mainnet since October 2026): the V1 share maps are gone and the
 * upgrade's AlphaV2 migration sweeps small positions, deleting dust with no event naming its holder and
 * unstaking small legacy positions to their coldkeys; the demo coldkey's current-runtime life happened before
 * it. The pack, built over the real WebSocket from what the real pipeline published, is held against the
 * sandbox's truth: income per position and UK day to the RAO, every swept position booked as the migration's
 * disposal, nothing about it left unexplained, and the gains engine rerun on cgt-input.csv gives the pack's
 * disposals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTruth, type Truth } from '../../../pipeline/devnet/index.js';
import { GbpPrices } from '../../../pipeline/tax/gbp-prices.js';
import { gbpOfTaoRao } from '../../../pipeline/tax/income-ledger.js';
import { type BuiltPack, buildPackFiles } from '../../../pipeline/tax/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../pipeline/tax/pack/pack-chain.js';
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
const sweptOfOrder = () =>
  truth.alpha_v2_sweep.filter((s) => pack.inputs.coldkeys.includes(s.coldkey) && BigInt(s.alpha_rao) > 0n);
const treatmentsAt = (block: number) => pack.ledger.mapping.events.filter((t) => t.action.block === block);

describe('the pack on spec 473', () => {
  it('runs on a chain whose head is spec 473 and whose sweep took positions of the demo coldkey', async () => {
    const reader = await chain.reader();
    const head = await reader.finalizedHead();
    expect(await reader.specVersionOfBlock(head.number)).toBe(473);
    const latest = truth.latest_runtime_block!;
    const current = truth.current_runtime_block!;
    expect(await reader.specVersionOfBlock(latest - 1)).toBe(425);
    expect(await reader.specVersionOfBlock(current - 1)).toBe(393);
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
    // The tax year's collected UK days, known from the world (not from the pack): the record's first day is
    // the opening, the last is today (partial, not in the pack).
    const yearDays = pack.ledger.days.map((d) => d.date);
    expect(yearDays[0]).toBe('2026-01-02');
    const expected = new Map<string, bigint>();
    for (const coldkey of truth.coldkeys.filter((c) => pack.inputs.coldkeys.includes(c.coldkey))) {
      for (const day of coldkey.days) {
        if (!yearDays.includes(day.date)) continue;
        for (const p of day.income)
          expected.set(`${coldkey.coldkey}|${day.date}|${p.hotkey}|${p.netuid}`, BigInt(p.alpha_rao));
      }
    }
    expect(expected.size).toBeGreaterThan(0);
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

  it('books every position the migration unstaked as a disposal for the TAO paid, named as the migration', () => {
    const unstaked = sweptOfOrder().filter((s) => s.kind === 'unstaked');
    expect(unstaked.length).toBeGreaterThan(0);
    for (const swept of unstaked) {
      const treated = treatmentsAt(swept.block).filter((t) => t.action.kind === 'unstake');
      const mine = treated.find((t) =>
        t.action.events.some(
          (e) => e.kind === 'StakeRemoved' && e.hotkey === swept.hotkey && e.netuid === swept.netuid,
        ),
      );
      expect(mine, `${swept.hotkey} ${swept.netuid} at ${swept.block}`).toBeDefined();
      expect(mine!.treatment).toContain("the chain's AlphaV2 migration");
      const price = new GbpPrices(pack.inputs.fiat).on(swept.time.slice(0, 10))!;
      const taoValue = gbpOfTaoRao(BigInt(swept.tao_rao), price).toFixed();
      const sides = mine!.transactions.map((tx) => [
        tx.action,
        tx.asset.split(':')[0],
        raoOf(tx.quantity.toFixed()),
      ]);
      if (swept.netuid === 0) {
        // Root stake is TAO: paid out as TAO, nothing changes hands.
        expect(sides).toEqual([]);
        continue;
      }
      expect(sides).toEqual([
        ['dispose', 'alpha', BigInt(swept.alpha_rao)],
        ['acquire', 'TAO', BigInt(swept.tao_rao)],
      ]);
      expect(mine!.transactions[0]!.gbp.toFixed()).toBe(taoValue);
    }
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
    const zeroRows = readCsv(files.get('income.csv')!).filter((row) => raoOf(row['alpha']!) === 0n);
    for (const row of zeroRows) expect(row['gbp'] ?? '0', JSON.stringify(row)).toMatch(/^0(\.0+)?$/);
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
