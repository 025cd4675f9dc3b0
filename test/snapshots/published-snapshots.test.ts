/**
 * The published snapshots of a 35-day sandbox world, checked rule by rule (spec section 1 made exact)
 * against the sandbox's ground truth: totals per window, nulls, the partial day, the 7/30/90/365
 * windows with coverage, and CSV equal to JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SubnetDetail, SubnetHistory, SubnetList } from '../../pipeline/contract/index.js';
import { snapshotPaths } from '../../pipeline/contract/snapshot-paths.js';
import { HISTORY_WINDOWS } from '../../pipeline/contract/windows.js';
import {
  FolderObjectStore,
  type Manifest,
  readManifest,
  readPublishedObject,
} from '../../pipeline/store/index.js';
import {
  BASE_URL,
  CLAIMS,
  NOW_MS,
  type PublishedSandbox,
  publishedSandbox,
  reusedNetuid,
} from '../support/published-sandbox.js';
import {
  alphaText,
  asOfMs,
  expectedDay,
  expectedRow,
  panelPrice,
  registeredAtPanel,
} from './expected-from-truth.js';

let world: PublishedSandbox;
let store: FolderObjectStore;
let manifest: Manifest;

async function object(path: string): Promise<string> {
  const published = await readPublishedObject(store, manifest, path);
  if (!published) throw new Error(`${path} is not published`);
  return new TextDecoder().decode(published.body);
}
const json = async (path: string) => JSON.parse(await object(path));

beforeAll(async () => {
  world = await publishedSandbox();
  store = new FolderObjectStore(world.storeDir);
  manifest = (await readManifest(store, ''))!;
}, 600_000);

describe('published snapshots of a 35-day sandbox world', () => {
  it('the subnet list has one valid row per registered subnet and the envelope the spec defines', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    expect(list.rows.map((row) => row.netuid)).toEqual(registeredAtPanel(world.truth));
    expect(list.rows.length).toBeGreaterThanOrEqual(65);
    expect(list.as_of).toBe(new Date(asOfMs(world.truth)).toISOString());
    expect(list.burns_checked_at).toBe(new Date(NOW_MS).toISOString());
    expect(list.freshness).toBe('current');
    expect(list.method_url).toBe(`${BASE_URL}/api/v1/method`);
    expect(list.version).toBe(manifest.version);
    expect(list.panel_date).toBe(world.today);
    expect(manifest['burns_checked_at']).toBe(list.burns_checked_at);
  });

  it('every row’s windows, valuations, change and burn times equal the truth', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    const names = new Map(world.truth.subnets.map((s) => [`${s.netuid}`, s.name]));
    let burning = 0;
    for (const row of list.rows) {
      const expected = expectedRow(world.truth, row.netuid);
      expect({ netuid: row.netuid, ...pick(row, expected) }).toEqual({ netuid: row.netuid, ...expected });
      expect(row.panel_date).toBe(world.today);
      if (row.netuid !== reusedNetuid(world.truth)) expect(row.name).toBe(names.get(`${row.netuid}`));
      if (row.alpha_7d > 0) burning += 1;
    }
    // The world is varied enough for the rules to be exercised.
    expect(burning).toBeGreaterThan(10);
    expect(list.rows.some((row) => row.change_7d_pct === null)).toBe(true);
    expect(list.rows.some((row) => row.change_7d_pct !== null && row.change_7d_pct < 0)).toBe(true);
    expect(list.rows.some((row) => row.last_burn === null && row.alpha_30d === 0)).toBe(true);
  });

  it('a subnet without a pool has null price and null TAO values, never 0', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    const unpriced = list.rows.filter((row) => panelPrice(world.truth, world.today, row.netuid) === null);
    expect(unpriced.length).toBeGreaterThan(0);
    for (const row of unpriced) {
      expect([row.price_tao, row.tao_24h, row.tao_7d, row.tao_30d]).toEqual([null, null, null, null]);
    }
    const root = list.rows.find((row) => row.netuid === 0)!;
    expect(root.price_tao).toBe(1);
  });

  it('spark7 is the daily alpha of the 7 days ending with the as_of day, oldest first', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    const days = world.truth.days.slice(-7).map((d) => d.date);
    for (const row of list.rows) {
      expect(row.spark7).toEqual(days.map((date) => expectedDay(world.truth, row.netuid, date).alpha));
    }
  });

  it('claims: the latest published claim, and none from a previous holder of a reused netuid', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    const one = list.rows.find((row) => row.netuid === 1)!;
    expect(one.claim).toEqual({
      text: CLAIMS.newerText,
      name_at_source: null,
      source: 'https://example.com/1/new',
      reviewed: world.truth.days[21]!.date,
    });
    expect(list.rows.find((row) => row.netuid === reusedNetuid(world.truth))!.claim).toBeNull();
    expect(list.rows.find((row) => row.netuid === 2)!.claim).toBeNull();
  });

  it('the subnet detail carries the same row as the list', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    for (const row of list.rows.slice(0, 8)) {
      const detail = SubnetDetail.parse(await json(snapshotPaths.subnetDetail(row.netuid)));
      expect(detail.subnet).toEqual(row);
      expect(detail.as_of).toBe(list.as_of);
    }
  });

  it('history: one day per UTC day of each window, ascending, values from the truth, today partial', async () => {
    const collected = new Set(world.truth.days.map((d) => d.date));
    for (const netuid of [0, 1, 2, reusedNetuid(world.truth)]) {
      for (const days of HISTORY_WINDOWS) {
        const history = SubnetHistory.parse(await json(snapshotPaths.history(netuid, days)));
        expect(history.netuid).toBe(netuid);
        expect(history.days).toBe(days);
        expect(history.rows).toHaveLength(days);
        expect(history.rows[days - 1]!.date).toBe(world.today);
        expect(history.coverage).toBe(
          history.rows.every((row) => collected.has(row.date)) ? 'complete' : 'partial',
        );
        for (const row of history.rows) {
          const { alphaRao: _exact, ...expected } = expectedDay(world.truth, netuid, row.date);
          expect(row).toEqual({ ...expected, partial_day: row.date === world.today });
        }
      }
    }
  });

  it('coverage: 7 and 30 days are complete, 90 and 365 partial (collection began 35 days ago)', async () => {
    const coverage = async (days: 7 | 30 | 90 | 365) =>
      SubnetHistory.parse(await json(snapshotPaths.history(1, days))).coverage;
    expect([await coverage(7), await coverage(30), await coverage(90), await coverage(365)]).toEqual([
      'complete',
      'complete',
      'partial',
      'partial',
    ]);
    const list = await json(snapshotPaths.subnetList());
    expect(list.trend.collection_began).toBe(world.firstDay);
  });

  it('a day whose burns have no price has tao null and counts them as unpriced', async () => {
    let found = 0;
    for (const netuid of registeredAtPanel(world.truth)) {
      const history = SubnetHistory.parse(await json(snapshotPaths.history(netuid, 30)));
      for (const row of history.rows.filter((r) => r.burns > 0 && r.unpriced_burns === r.burns)) {
        expect(row.tao).toBeNull();
        found += 1;
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('the CSV holds the same rows and values as the JSON, RFC 4180 with an empty field for null', async () => {
    for (const netuid of [1, reusedNetuid(world.truth)]) {
      for (const days of HISTORY_WINDOWS) {
        const history = SubnetHistory.parse(await json(snapshotPaths.history(netuid, days)));
        const csv = await object(snapshotPaths.historyCsv(netuid, days));
        const lines = csv.split('\r\n');
        expect(lines[0]).toBe('date,alpha,burns,tao,unpriced_burns,partial_day');
        expect(lines.at(-1)).toBe('');
        const rows = lines.slice(1, -1).map((line) => line.split(','));
        expect(rows).toHaveLength(history.rows.length);
        rows.forEach((cells, i) => {
          const row = history.rows[i]!;
          expect(cells[0]).toBe(row.date);
          expect(cells[1]).toBe(alphaText(expectedDay(world.truth, netuid, row.date).alphaRao));
          expect(Number(cells[1])).toBe(row.alpha);
          expect(Number(cells[2])).toBe(row.burns);
          expect(cells[3] === '' ? null : Number(cells[3])).toBe(row.tao);
          expect(Number(cells[4])).toBe(row.unpriced_burns);
          expect(cells[5]).toBe(String(row.partial_day));
        });
      }
    }
  });

  it('the trend sums the network: 7-day totals, subnets burning, a 30-day daily series', async () => {
    const list = SubnetList.parse(await json(snapshotPaths.subnetList()));
    const trend = list.trend;
    const netuids = [...new Set(world.truth.burns.map((b) => b.netuid))];
    const rows = netuids.map((netuid) => expectedRow(world.truth, netuid));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(trend.alpha_7d).toBeCloseTo(sum(rows.map((r) => r.alpha_7d)), 6);
    expect(trend.subnets_burning_7d).toBe(rows.filter((r) => r.alpha_7d > 0).length);
    expect(trend.daily).toHaveLength(30);
    expect(trend.daily.at(-1)!.date).toBe(world.today);
    const day = trend.daily.at(-2)!;
    expect(day.burns).toBe(sum(netuids.map((netuid) => expectedDay(world.truth, netuid, day.date).burns)));
  });
});

function pick<T extends object>(row: Record<string, unknown>, like: T): T {
  return Object.fromEntries(Object.keys(like).map((key) => [key, row[key]])) as T;
}
