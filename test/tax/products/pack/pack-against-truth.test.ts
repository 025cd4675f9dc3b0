/**
 * The pack of the sandbox's demo coldkey against the world's own truth: a winter world (UK days are UTC
 * days, so the truth's days are the pack's), published by the real pipeline, the pack built over the real
 * WebSocket. Income per day and position must equal the truth's exactly in RAO; disposals must equal a
 * simple computation from the truth's events and the published GBP prices, written here from scratch.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTruth, type Truth } from '../../../../pipeline/devnet/index.js';
import { buildPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { addDays } from '../../../../pipeline/time/utc-day.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-01-01T00:00:00Z');
const HISTORY_DAYS = 30;
const PAID_AT = new Date('2026-02-01T09:30:00Z');
/**
 * The UK days the pack must cover, from what the test knows, not from the pack: the 2025/26 tax year
 * (6 April 2025 to 5 April 2026) and the record's collected days (genesis to the last whole day before
 * the world's clock, 15:00 on day 31), less the first (the record opens at its end: holdings, not income).
 */
const FIRST_DAY = addDays(GENESIS.toISOString().slice(0, 10), 1);
const LAST_DAY = addDays(GENESIS.toISOString().slice(0, 10), HISTORY_DAYS - 1);
const inWindow = (date: string) =>
  date >= FIRST_DAY && date <= LAST_DAY && date >= '2025-04-06' && date <= '2026-04-05';

let world: PackWorld;
let chain: PackChain;
let truth: Truth;
let files: Map<string, string>;
let zipBytes: Uint8Array;
let demo: string;

const order = () => ({
  id: 'ord_truth',
  sku: 'tax-pack',
  packName: 'UK staking tax pack',
  taxYear: '2025/26',
  coldkeys: [demo],
  paidAt: PAID_AT,
});

beforeAll(async () => {
  // The history before today's runtimes: the truth's staking_events (one row per call of the six old kinds)
  // is the whole record there, which the independent computation below reads. Today's runtimes are held
  // against the truth's actions and sweep in spec-425-pack and spec-473-pack.
  world = await sharedPackWorld({ genesis: GENESIS, historyDays: HISTORY_DAYS, runtimes: 'legacy' });
  chain = openPackChain(world.devnet.url);
  demo = world.devnet.demoColdkey;
  const finalizedNow = world.nowMs - world.options.finalityLag * world.options.blockTimeMs;
  truth = buildTruth(
    { ...world.options, now: () => finalizedNow },
    GENESIS.toISOString().slice(0, 10),
    new Date(world.nowMs).toISOString().slice(0, 10),
  );
  zipBytes = await buildPack(order(), { store: world.store, chain: chain.reader });
  const zip = await JSZip.loadAsync(zipBytes);
  files = new Map();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
}, 300_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

describe('the demo coldkey pack', () => {
  it('has income per UK day and position equal to the truth, exactly in RAO', () => {
    const income = readCsv(files.get('income.csv')!);
    const days = [...new Set(income.map((row) => row['date']!))].sort();
    expect(days.length).toBeGreaterThan(20);
    const packed = new Map(
      income.map((row) => [`${row['date']}|${row['hotkey']}|${row['netuid']}`, raoOf(row['alpha']!)]),
    );
    const coldkey = truth.coldkeys.find((c) => c.coldkey === demo)!;
    const expected = new Map<string, bigint>();
    for (const day of coldkey.days) {
      if (!inWindow(day.date)) continue;
      for (const position of day.income)
        expected.set(`${day.date}|${position.hotkey}|${position.netuid}`, BigInt(position.alpha_rao));
    }
    expect(packed.size).toBe(expected.size);
    expect(new Map([...packed].sort())).toEqual(new Map([...expected].sort()));
    // Ten positions, on root and on subnets.
    expect(new Set(income.map((row) => `${row['hotkey']}|${row['netuid']}`)).size).toBe(10);
  });

  it('holds stakes, unstakes, a move between subnets and a move between hotkeys on one subnet', () => {
    const events = readCsv(files.get('events.csv')!);
    const kinds = new Set(events.map((e) => e['kind']));
    expect(kinds).toContain('StakeAdded');
    expect(kinds).toContain('StakeRemoved');
    const moves = events.filter((e) => e['kind'] === 'StakeMoved' && e['coldkey'] === demo);
    expect(
      moves.some((e) => e['netuid'] === e['counterpart_netuid'] && e['hotkey'] !== e['counterpart_hotkey']),
    ).toBe(true);
    expect(moves.some((e) => e['netuid'] !== e['counterpart_netuid'])).toBe(true);
    for (const move of moves.filter((e) => e['netuid'] === e['counterpart_netuid'])) {
      expect(move['treatment']).toBe('moved between hotkeys on one subnet: not a disposal');
    }
  });

  it('has the disposals an independent computation from the truth events gives', async () => {
    const prices = await publishedGbp(world);
    const details = new Map(truth.staking_details.map((d) => [`${d.block}/${d.event_index}`, d]));
    // Expected: per (UK day, asset), the proceeds; TAO quantities too (alpha ones are measured on the chain).
    const expected = new Map<string, { proceeds: number; taoRao: bigint }>();
    // Days and subnets with a move between hotkeys: the RAO its share arithmetic lost is disposed of for nothing.
    const movedWithin = new Set<string>();
    const add = (time: string, asset: string, taoValueRao: bigint, taoRao: bigint) => {
      const date = time.slice(0, 10); // winter: the UK day is the UTC day
      const key = `${date}|${asset}`;
      const entry = expected.get(key) ?? { proceeds: 0, taoRao: 0n };
      // Valued at the rate of the UK day's end: the quote dated the next UTC day.
      entry.proceeds += (Number(taoValueRao) / 1e9) * prices.get(addDays(date, 1))!;
      entry.taoRao += taoRao;
      expected.set(key, entry);
    };
    for (const event of truth.staking_events) {
      if (event.coldkey !== demo || !inWindow(event.time.slice(0, 10))) continue; // winter: UK day = UTC day
      const detail = details.get(`${event.block}/${event.event_index}`)!;
      const tao = BigInt(event.tao_rao ?? '0');
      const alpha = (netuid: number | null) => (netuid === 0 ? 'TAO' : `alpha:${netuid}:0`);
      if (event.kind === 'StakeAdded' && event.netuid !== 0)
        add(event.time, 'TAO', tao - BigInt(detail.fee_rao ?? '0'), tao);
      if (event.kind === 'StakeRemoved' && event.netuid !== 0) add(event.time, alpha(event.netuid), tao, 0n);
      if (
        (event.kind === 'StakeMoved' || event.kind === 'StakeSwapped') &&
        event.netuid !== detail.destination_netuid
      ) {
        add(event.time, alpha(event.netuid), tao, event.netuid === 0 ? tao : 0n);
      }
      if (event.kind === 'StakeTransferred' && detail.destination_coldkey !== demo)
        add(event.time, alpha(event.netuid), tao, 0n);
      if (event.kind === 'Transfer' && detail.destination_coldkey !== demo) add(event.time, 'TAO', tao, tao);
      // A stake on or unstake from root: its fee is a disposal of that TAO at its value (tokens given for
      // a service).
      const fee = BigInt(detail.fee_rao ?? '0');
      if ((event.kind === 'StakeAdded' || event.kind === 'StakeRemoved') && event.netuid === 0 && fee > 0n)
        add(event.time, 'TAO', fee, fee);
      if (
        (event.kind === 'StakeMoved' || event.kind === 'StakeSwapped') &&
        event.netuid === detail.destination_netuid
      )
        movedWithin.add(`${event.time.slice(0, 10)}|${alpha(event.netuid)}`);
    }
    const disposals = new Map<string, { proceeds: number; quantity: string }>();
    for (const row of readCsv(files.get('disposals.csv')!)) {
      disposals.set(`${row['date']}|${row['asset']}`, {
        proceeds: Number(row['proceeds_gbp']),
        quantity: row['quantity']!,
      });
    }
    for (const key of movedWithin) {
      if (!expected.has(key) && disposals.get(key)?.proceeds === 0) disposals.delete(key);
    }
    expect([...disposals.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, want] of expected) {
      const got = disposals.get(key)!;
      expect(got.proceeds, key).toBeCloseTo(want.proceeds, 4);
      if (key.endsWith('|TAO')) expect(raoOf(got.quantity), key).toBe(want.taoRao);
    }
  });

  it('is the same bytes when built again', async () => {
    const again = await buildPack(order(), { store: world.store, chain: chain.reader });
    expect(Buffer.from(again).equals(Buffer.from(zipBytes))).toBe(true);
  });

  it('is the same bytes when its gains and exports are made on a second thread, as a big pack makes them', async () => {
    const threaded = await buildPackFiles(order(), {
      store: world.store,
      chain: chain.reader,
      threadFromPositionDays: 0,
    });
    expect(threaded.secondThread).toBe(true);
    expect(Buffer.from(threaded.zip).equals(Buffer.from(zipBytes))).toBe(true);
  });

  it('gives sbm tax cgt exactly its disposals from cgt-input.csv', async () => {
    const { computeGains } = await import('../../../../pipeline/tax/uk-rules/cgt/compute-gains.js');
    const { readCgtCsv } = await import('../../../../pipeline/tax/uk-rules/cgt/read-cgt-csv.js');
    const { Decimal } = await import('decimal.js');
    const rows = readCsv(files.get('cgt-input.csv')!);
    expect(Object.keys(rows[0]!)).toEqual([
      'datetime',
      'asset',
      'action',
      'quantity',
      'gbp',
      'fee_gbp',
      'kind',
      'counterparty',
    ]);
    // Read as `sbm tax cgt` reads it.
    const report = computeGains(readCgtCsv(files.get('cgt-input.csv')!));
    const fromPack = readCsv(files.get('disposals.csv')!).map(
      (row) => `${row['date']}|${row['asset']}|${row['gain_gbp']}`,
    );
    // The CSVs give pounds to 8 decimal places (half to even), as every pound figure of the pack.
    const rerun = report.disposals.map(
      (d) => `${d.date}|${d.asset}|${d.gain.toFixed(8, Decimal.ROUND_HALF_EVEN)}`,
    );
    expect(rerun).toEqual(fromPack);
  });
});

async function publishedGbp(w: PackWorld): Promise<Map<string, number>> {
  const manifest = JSON.parse(new TextDecoder().decode((await w.store.get('manifest.json'))!)) as {
    objects: Array<{ path: string; key: string }>;
  };
  const entry = manifest.objects.find((o) => o.path === 'tax/fiat-prices.json')!;
  const prices = JSON.parse(new TextDecoder().decode((await w.store.get(entry.key))!)) as {
    days: Array<{ date: string; gbp: string | null }>;
  };
  return new Map(prices.days.filter((d) => d.gbp !== null).map((d) => [d.date, Number(d.gbp)]));
}
