/**
 * The analysts' views, as an analyst meets them: a warehouse built by the real pipeline (the shared
 * sandbox world, plus fiat prices imported through `sbm prices import`), closed, then opened read-only by
 * a plain DuckDB client. The README's five example queries run verbatim (the text below is the README's)
 * and their answers are checked against figures computed here from the world's own truth, or, where the
 * truth does not record a field (transfer recipients), from the base table read and parsed independently.
 * Every table, view and column must carry a comment.
 */
import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Truth } from '../../pipeline/devnet/index.js';
import { importFiatPrices } from '../../pipeline/prices/import-fiat-prices.js';
import { queryReadOnly } from '../../pipeline/warehouse/read-only-query.js';
import { type PublishedSandbox, publishedSandbox, reusedNetuid } from '../support/published-sandbox.js';

/** The README's example queries, verbatim (README "The warehouse, for analysts"). */
const EXAMPLE_QUERIES = {
  burnsPerSubnetPerDay: `SELECT day, netuid, name, burns, buybacks, alpha, price_tao, tao
FROM subnet_burns_daily
WHERE day > (SELECT max(day) FROM collected_days) - 7
ORDER BY day DESC, tao DESC NULLS LAST, netuid;`,
  topSubnets30Days: `SELECT d.netuid, d.registered_at, d.name, sum(d.burns) AS burns, sum(d.alpha) AS alpha,
       sum(d.tao) AS tao, sum(d.tao * fx.tao_price) AS usd
FROM subnet_burns_daily d
LEFT JOIN fx_daily fx ON fx.day = d.day AND fx.currency = 'usd'
WHERE d.day > (SELECT max(day) FROM collected_days) - 30
GROUP BY d.netuid, d.registered_at, d.name
ORDER BY tao DESC NULLS LAST, d.netuid
LIMIT 10;`,
  buybacksPerSubnet: `SELECT netuid, registered_at, name, count(*) AS buybacks, sum(tao) AS tao_spent,
       sum(alpha) AS alpha_burned, min(price_paid_tao) AS lowest_price, max(price_paid_tao) AS highest_price,
       min(day) AS first_day, max(day) AS last_day
FROM buybacks
GROUP BY netuid, registered_at, name
ORDER BY tao_spent DESC, netuid;`,
  /** Run after `SET VARIABLE coldkey = '…';` (the README shows that line with a placeholder address). */
  coldkeyHistory: `SELECT day, block, event_index, kind, role, counterpart_coldkey, netuid, destination_netuid,
       tao_rao, alpha_rao
FROM staking_events_by_coldkey
WHERE coldkey = getvariable('coldkey')
ORDER BY block, event_index, role;`,
  reusedNetuids: `SELECT netuid, registered_at, registered_day, names, first_panel_day, last_panel_day,
       last_panel_block, deregistered_by_block, registered_now
FROM subnet_registry
WHERE netuid IN (SELECT netuid FROM subnet_registry GROUP BY netuid HAVING count(*) > 1)
ORDER BY netuid, registered_at;`,
};

const DAY_MS = 86_400_000;
const E18 = 10n ** 18n;

let world: PublishedSandbox;
let dir: string;
let path: string;
let instance: DuckDBInstance;
let db: DuckDBConnection;
/** The fiat price imported for each day, in units of 10^-8 USD. */
const usdByDay = new Map<string, bigint>();

beforeAll(async () => {
  world = await publishedSandbox();
  dir = await mkdtemp(join(tmpdir(), 'sbm-analyst-'));
  path = join(dir, 'burns.duckdb');
  // A copy: the shared world is read by other test files; this one adds fiat prices to it.
  await copyFile(world.warehousePath, path);
  if (await exists(`${world.warehousePath}.wal`)) await copyFile(`${world.warehousePath}.wal`, `${path}.wal`);
  const lines = ['date,currency,tao_price'];
  for (const [i, { date }] of world.truth.days.entries()) {
    const price = `${300 + i}.${String(12_345_678 + i).padStart(8, '0')}`;
    lines.push(`${date},usd,${price}`);
    usdByDay.set(date, BigInt(price.replace('.', '')));
  }
  const csv = join(dir, 'fx.csv');
  await writeFile(csv, `${lines.join('\n')}\n`);
  await importFiatPrices({ file: csv, warehousePath: path });
  // What an analyst does: a stock client, read-only (Python: duckdb.connect(path, read_only=True)).
  instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  db = await instance.connect();
});

afterAll(async () => {
  db?.closeSync();
  instance?.closeSync();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function answer(sql: string): Promise<unknown[]> {
  return (await db.runAndReadAll(sql)).getRowObjectsJson();
}

describe('analyst views, opened read-only', () => {
  it('1. burns per subnet per day, with the panel price and the TAO value', async () => {
    const truth = world.truth;
    const from = addDays(world.today, -6);
    const expected = dailyBurns(truth)
      .filter((d) => d.day >= from)
      .sort((a, b) => cmp(b.day, a.day) || cmpDesc(a.tao, b.tao) || a.netuid - b.netuid)
      .map((d) => ({
        day: d.day,
        netuid: d.netuid,
        name: d.name,
        burns: d.burns,
        buybacks: d.buybacks,
        alpha: units(d.alpha, 9),
        price_tao: d.price === null ? null : units(d.price, 18),
        tao: d.tao === null ? null : units(d.tao, 9),
      }));
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.some((d) => d.buybacks > 0)).toBe(true);
    expect(await answer(EXAMPLE_QUERIES.burnsPerSubnetPerDay)).toEqual(expected);
  });

  it('2. top subnets by TAO burned over 30 days, in USD at each day’s rate', async () => {
    const from = addDays(world.today, -29);
    const bySubnet = new Map<string, { netuid: number; registeredAt: number; name: string } & Totals>();
    for (const d of dailyBurns(world.truth).filter((row) => row.day >= from)) {
      const key = `${d.netuid}/${d.registeredAt}`;
      const total = bySubnet.get(key) ?? {
        netuid: d.netuid,
        registeredAt: d.registeredAt,
        name: d.name,
        burns: 0,
        alpha: 0n,
        tao: null,
        usd: null,
      };
      total.burns += d.burns;
      total.alpha += d.alpha;
      if (d.tao !== null) {
        total.tao = (total.tao ?? 0n) + d.tao;
        total.usd = (total.usd ?? 0n) + d.tao * usdByDay.get(d.day)!;
      }
      bySubnet.set(key, total);
    }
    const expected = [...bySubnet.values()]
      .sort((a, b) => cmpDesc(a.tao, b.tao) || a.netuid - b.netuid)
      .slice(0, 10)
      .map((t) => ({
        netuid: t.netuid,
        registered_at: String(t.registeredAt),
        name: t.name,
        burns: String(t.burns),
        alpha: units(t.alpha, 9),
        tao: t.tao === null ? null : units(t.tao, 9),
        usd: t.usd === null ? null : units(t.usd, 17),
      }));
    expect(expected).toHaveLength(10);
    expect(await answer(EXAMPLE_QUERIES.topSubnets30Days)).toEqual(expected);
  });

  it('3. buybacks per subnet: TAO spent, alpha burned, the prices paid', async () => {
    const bySubnet = new Map<string, BuybackTotals>();
    for (const b of world.truth.burns.filter((burn) => burn.kind === 'buyback')) {
      const key = `${b.netuid}/${b.registered_at}`;
      const tao = BigInt(b.tao_rao!);
      const alpha = BigInt(b.alpha_rao);
      const price = (tao * E18) / alpha;
      const day = b.time.slice(0, 10);
      const t = bySubnet.get(key);
      if (t === undefined) {
        bySubnet.set(key, {
          netuid: b.netuid,
          registeredAt: b.registered_at,
          count: 1,
          tao,
          alpha,
          low: price,
          high: price,
          first: day,
          last: day,
        });
        continue;
      }
      t.count += 1;
      t.tao += tao;
      t.alpha += alpha;
      t.low = price < t.low ? price : t.low;
      t.high = price > t.high ? price : t.high;
      t.last = day > t.last ? day : t.last;
      t.first = day < t.first ? day : t.first;
    }
    const expected = [...bySubnet.values()]
      .sort((a, b) => cmpDesc(a.tao, b.tao) || a.netuid - b.netuid)
      .map((t) => ({
        netuid: t.netuid,
        registered_at: String(t.registeredAt),
        name: subnetName(world.truth, t.netuid, t.registeredAt),
        buybacks: String(t.count),
        tao_spent: units(t.tao, 9),
        alpha_burned: units(t.alpha, 9),
        lowest_price: units(t.low, 18),
        highest_price: units(t.high, 18),
        first_day: t.first,
        last_day: t.last,
      }));
    expect(expected.length).toBeGreaterThan(3);
    expect(await answer(EXAMPLE_QUERIES.buybacksPerSubnet)).toEqual(expected);
  });

  it('4. one coldkey’s staking history, from both sides of a transfer', async () => {
    // The base table, read and unpacked here (the truth does not record recipients).
    const raw = (await answer(
      `SELECT strftime(day, '%Y-%m-%d') AS day, block, event_index, kind, coldkey, netuid, tao_rao, alpha_rao,
              CAST(detail AS VARCHAR) AS detail
         FROM staking_events`,
    )) as Array<Omit<StakingRow, 'detail'> & { detail: string }>;
    const events: StakingRow[] = raw.map((e) => ({ ...e, detail: JSON.parse(e.detail) }));
    // Some events carry no detail (null): a lease dividend, a fee paid in alpha.
    const receiverOf = (e: StakingRow) => e.detail?.['destination_coldkey'] ?? e.detail?.['to'] ?? null;
    // A coldkey that made events and also received a stake transfer.
    const coldkey = receiverOf(events.find((e) => e.kind === 'StakeTransferred')!)!;
    const row = (e: StakingRow, role: 'origin' | 'destination') => ({
      day: e.day,
      block: e.block,
      event_index: e.event_index,
      kind: e.kind,
      role,
      counterpart_coldkey: role === 'origin' ? receiverOf(e) : e.coldkey,
      netuid: e.netuid,
      destination_netuid: e.detail?.['destination_netuid'] ?? null,
      tao_rao: e.tao_rao,
      alpha_rao: e.alpha_rao,
    });
    const expected = [
      ...events.filter((e) => e.coldkey === coldkey).map((e) => row(e, 'origin')),
      ...events.filter((e) => receiverOf(e) === coldkey).map((e) => row(e, 'destination')),
    ].sort((a, b) => Number(a.block) - Number(b.block) || Number(a.event_index) - Number(b.event_index));
    // The origin side is the world's own record: its staking_events, which list each event of the runtimes
    // before spec 425 (from 425 one call emits several events, which the truth lists per action).
    const cut = world.truth.current_runtime_block ?? Number.POSITIVE_INFINITY;
    const truthOrigin = world.truth.staking_events
      .filter((e) => e.coldkey === coldkey && e.block < cut)
      .map((e) => ({ block: String(e.block), kind: e.kind, tao_rao: e.tao_rao, alpha_rao: e.alpha_rao }));
    expect(
      expected
        .filter((e) => e.role === 'origin' && Number(e.block) < cut)
        .map((e) => ({ block: e.block, kind: e.kind, tao_rao: e.tao_rao, alpha_rao: e.alpha_rao })),
    ).toEqual(truthOrigin);
    expect(new Set(expected.map((e) => e.role))).toEqual(new Set(['origin', 'destination']));

    await db.run(`SET VARIABLE coldkey = '${coldkey}'`);
    expect(await answer(EXAMPLE_QUERIES.coldkeyHistory)).toEqual(expected);
    // The same text through `sbm sql`, which takes both statements in one argument.
    const viaSbm = await queryReadOnly(
      path,
      `SET VARIABLE coldkey = '${coldkey}';\n${EXAMPLE_QUERIES.coldkeyHistory}`,
    );
    expect(viaSbm.rows).toEqual(expected);
  });

  it('5. netuids that changed hands, with each registration’s window', async () => {
    const truth = world.truth;
    const reused = reusedNetuid(truth);
    const registrations = truth.subnets
      .filter((s) => s.netuid === reused)
      .sort((a, b) => a.registered_at - b.registered_at);
    expect(registrations.length).toBeGreaterThan(1);
    const expected = registrations.map((s, i) => {
      const end = s.deregistered_at ?? Number.POSITIVE_INFINITY;
      const listed = truth.days.filter((d) => d.last_block >= s.registered_at && d.last_block < end);
      const last = listed.at(-1)!;
      const gone = truth.days.find((d) => d.date > last.date);
      const next = registrations[i + 1]?.registered_at ?? null;
      const bounds = [next, gone?.last_block ?? null].filter((b): b is number => b !== null);
      return {
        netuid: reused,
        registered_at: String(s.registered_at),
        registered_day: truth.days.find(
          (d) => d.first_block <= s.registered_at && s.registered_at <= d.last_block,
        )!.date,
        names: [s.name],
        first_panel_day: listed[0]!.date,
        last_panel_day: last.date,
        last_panel_block: String(last.last_block),
        deregistered_by_block: bounds.length === 0 ? null : String(Math.min(...bounds)),
        registered_now: s.deregistered_at === null,
      };
    });
    const rows = (await answer(EXAMPLE_QUERIES.reusedNetuids)) as typeof expected;
    expect(rows).toEqual(expected);
    // The window holds the world's actual deregistration block.
    const first = registrations[0]!;
    expect(first.deregistered_at).not.toBeNull();
    expect(first.deregistered_at!).toBeGreaterThan(Number(rows[0]!.last_panel_block));
    expect(first.deregistered_at!).toBeLessThanOrEqual(Number(rows[0]!.deregistered_by_block));
  });

  it('lists every registration of the world in subnet_registry, registered now or not', async () => {
    const rows = (await answer(
      'SELECT netuid, registered_at, name, registered_now FROM subnet_registry ORDER BY netuid, registered_at',
    )) as Array<{ netuid: number; registered_at: string; name: string; registered_now: boolean }>;
    const expected = [...world.truth.subnets]
      .sort((a, b) => a.netuid - b.netuid || a.registered_at - b.registered_at)
      .map((s) => ({
        netuid: s.netuid,
        registered_at: String(s.registered_at),
        name: s.name,
        registered_now: s.deregistered_at === null,
      }));
    expect(rows).toEqual(expected);
  });

  it('documents every table, view and column with a comment', async () => {
    const missing = (await answer(
      `SELECT 'table ' || table_name AS what FROM duckdb_tables()
        WHERE NOT internal AND schema_name = 'main' AND coalesce(comment, '') = ''
       UNION ALL
       SELECT 'view ' || view_name FROM duckdb_views()
        WHERE NOT internal AND schema_name = 'main' AND coalesce(comment, '') = ''
       UNION ALL
       SELECT 'column ' || table_name || '.' || column_name FROM duckdb_columns()
        WHERE NOT internal AND schema_name = 'main' AND coalesce(comment, '') = ''
       ORDER BY 1`,
    )) as Array<{ what: string }>;
    expect(missing.map((m) => m.what)).toEqual([]);
    const views = (await answer(
      `SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' ORDER BY 1`,
    )) as Array<{ view_name: string }>;
    expect(views.map((v) => v.view_name)).toEqual([
      'burns_daily',
      'buybacks',
      'staking_events_by_coldkey',
      'subnet_burns',
      'subnet_burns_daily',
      'subnet_registry',
    ]);
  });
});

interface DayBurns {
  day: string;
  netuid: number;
  registeredAt: number;
  name: string;
  burns: number;
  buybacks: number;
  alpha: bigint;
  /** TAO per alpha, floored to 18 decimals, as an integer of 10^-18. */
  price: bigint | null;
  tao: bigint | null;
}

/** A staking_events row as the JSON reader returns it (BIGINT and HUGEINT as strings). */
interface StakingRow {
  day: string;
  block: string;
  event_index: number;
  kind: string;
  coldkey: string;
  netuid: number | null;
  tao_rao: string | null;
  alpha_rao: string | null;
  detail: { destination_coldkey?: string; to?: string; destination_netuid?: number } | null;
}

interface Totals {
  burns: number;
  alpha: bigint;
  tao: bigint | null;
  usd: bigint | null;
}

interface BuybackTotals {
  netuid: number;
  registeredAt: number;
  count: number;
  tao: bigint;
  alpha: bigint;
  low: bigint;
  high: bigint;
  first: string;
  last: string;
}

/** Burns and buybacks per (day, subnet registration), valued at the truth's panel reserves. */
function dailyBurns(truth: Truth): DayBurns[] {
  const days = new Map<string, DayBurns>();
  for (const b of truth.burns) {
    if (b.kind === 'recycle') continue;
    const day = b.time.slice(0, 10);
    const key = `${day}/${b.netuid}/${b.registered_at}`;
    const d = days.get(key) ?? {
      day,
      netuid: b.netuid,
      registeredAt: b.registered_at,
      name: subnetName(truth, b.netuid, b.registered_at),
      burns: 0,
      buybacks: 0,
      alpha: 0n,
      price: null,
      tao: null,
    };
    d.burns += 1;
    d.buybacks += b.kind === 'buyback' ? 1 : 0;
    d.alpha += BigInt(b.alpha_rao);
    days.set(key, d);
  }
  for (const d of days.values()) {
    const panel = truth.panel_prices.find(
      (p) => p.date === d.day && p.netuid === d.netuid && p.registered_at === d.registeredAt,
    );
    const tao = panel?.subnet_tao_rao == null ? null : BigInt(panel.subnet_tao_rao);
    const alphaIn = panel?.subnet_alpha_in_rao == null ? null : BigInt(panel.subnet_alpha_in_rao);
    if (tao !== null && alphaIn !== null && alphaIn > 0n) {
      d.price = (tao * E18) / alphaIn;
      d.tao = (d.alpha * tao) / alphaIn;
    }
  }
  return [...days.values()];
}

function subnetName(truth: Truth, netuid: number, registeredAt: number): string {
  const subnet = truth.subnets.find((s) => s.netuid === netuid && s.registered_at === registeredAt);
  if (subnet === undefined) throw new Error(`no subnet ${netuid}@${registeredAt} in the truth`);
  return subnet.name;
}

/** An integer of 10^-scale units as DuckDB prints a DECIMAL of that scale. */
function units(value: bigint, scale: number): string {
  const unit = 10n ** BigInt(scale);
  return `${value / unit}.${(value % unit).toString().padStart(scale, '0')}`;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Descending, NULLs last. */
function cmpDesc(a: bigint | null, b: bigint | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? -1 : 1;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
