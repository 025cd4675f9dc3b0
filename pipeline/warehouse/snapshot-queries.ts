/**
 * Everything the snapshot builder needs from the warehouse, read in a handful of set-based queries.
 * Times come back as epoch milliseconds and days as `YYYY-MM-DD` text; amounts stay bigint.
 */
import { type PoolReserves, poolReserves } from '../amounts/pool-price.js';
import { addDays, DAY_MS, formatUtcDay } from '../time/utc-day.js';
import type { Warehouse } from './open-warehouse.js';

const BURN_KINDS = `kind IN ('burn', 'buyback')`;

export interface CollectionState {
  /** Time of the last block covered by collection (the end of every window). */
  asOfMs: number;
  asOfDay: string;
  burnsCheckedAtMs: number | null;
  firstCollectedDay: string;
  /** Every collected day; `partial` marks today's day collected only to the finalized head. */
  collectedDays: Map<string, { complete: boolean; partial: boolean }>;
}

export interface WindowTotals {
  alpha24h: bigint;
  alpha7d: bigint;
  alpha30d: bigint;
  alphaPrev7d: bigint;
  observedBurns: number;
  alphaObservedTotal: bigint;
  firstBurnMs: number | null;
  lastBurnMs: number | null;
}

export interface DayBurns {
  alphaRao: bigint;
  taoRao: bigint | null;
  burns: number;
  unpricedBurns: number;
}

export interface SubnetAtPanel {
  netuid: number;
  registeredAt: number;
  name: string;
  price: PoolReserves | null;
}

export interface ClaimRow {
  text: string;
  nameAtSource: string | null;
  source: string;
  reviewed: string | null;
}

export interface SnapshotFacts extends CollectionState {
  panelDay: string;
  subnets: SubnetAtPanel[];
  windows: Map<number, WindowTotals>;
  /** netuid → day → burns of that day (only days with burns). */
  daily: Map<number, Map<string, DayBurns>>;
  claims: Map<number, ClaimRow>;
}

export class NothingCollectedError extends Error {
  override name = 'NothingCollectedError';
  constructor() {
    super('the warehouse holds no collected day yet: run `sbm collect` first');
  }
}

export async function readCollectionState(warehouse: Warehouse): Promise<CollectionState> {
  const days = await warehouse.rows(
    `SELECT strftime(day, '%Y-%m-%d') AS day, complete, partial, epoch_ms(last_block_time) AS last_ms
       FROM collected_days WHERE complete OR partial ORDER BY day`,
  );
  if (days.length === 0) throw new NothingCollectedError();
  const collectedDays = new Map<string, { complete: boolean; partial: boolean }>();
  let asOfMs = 0;
  for (const row of days) {
    collectedDays.set(String(row['day']), {
      complete: Boolean(row['complete']),
      partial: Boolean(row['partial']),
    });
    asOfMs = Math.max(asOfMs, Number(row['last_ms']));
  }
  const checked = await warehouse.rows(
    `SELECT epoch_ms(max(completed_at)) AS t FROM collection_runs WHERE status = 'complete'`,
  );
  const t = checked[0]?.['t'];
  return {
    asOfMs,
    asOfDay: formatUtcDay(asOfMs),
    burnsCheckedAtMs: t === null || t === undefined ? null : Number(t),
    firstCollectedDay: String(days[0]!['day']),
    collectedDays,
  };
}

/** The facts for snapshots whose longest window is `lookbackDays` UTC days ending with the as_of day. */
export async function readSnapshotFacts(warehouse: Warehouse, lookbackDays: number): Promise<SnapshotFacts> {
  const state = await readCollectionState(warehouse);
  const oldestDay = addDays(state.asOfDay, 1 - lookbackDays);
  const panel = await warehouse.rows(
    `SELECT strftime(max(day), '%Y-%m-%d') AS day FROM panel_prices WHERE day <= $asOfDay::DATE`,
    { asOfDay: state.asOfDay },
  );
  const panelDay = (panel[0]?.['day'] as string | null) ?? state.asOfDay;
  return {
    ...state,
    panelDay,
    subnets: await readSubnets(warehouse, panelDay),
    windows: await readWindows(warehouse, state.asOfMs),
    daily: await readDaily(warehouse, oldestDay, state.asOfDay),
    claims: await readClaims(warehouse),
  };
}

async function readSubnets(warehouse: Warehouse, panelDay: string): Promise<SubnetAtPanel[]> {
  const rows = await warehouse.rows(
    `SELECT s.netuid, s.registered_at, s.name, p.subnet_tao_rao, p.subnet_alpha_in_rao
       FROM subnet_days s
       LEFT JOIN panel_prices p ON p.day = s.day AND p.netuid = s.netuid AND p.registered_at = s.registered_at
      WHERE s.day = $day::DATE
      ORDER BY s.netuid`,
    { day: panelDay },
  );
  return rows.map((row) => ({
    netuid: Number(row['netuid']),
    registeredAt: Number(row['registered_at']),
    name: String(row['name']),
    price: poolReserves(nullableBig(row['subnet_tao_rao']), nullableBig(row['subnet_alpha_in_rao'])),
  }));
}

async function readWindows(warehouse: Warehouse, asOfMs: number): Promise<Map<number, WindowTotals>> {
  const rows = await warehouse.rows(
    `WITH b AS (
       SELECT netuid, alpha_rao, epoch_ms(block_time) AS t FROM burns
        WHERE ${BURN_KINDS} AND epoch_ms(block_time) <= $asOf)
     SELECT netuid,
            coalesce(sum(alpha_rao) FILTER (WHERE t > $from24h), 0)::HUGEINT AS a24,
            coalesce(sum(alpha_rao) FILTER (WHERE t > $from7d), 0)::HUGEINT AS a7,
            coalesce(sum(alpha_rao) FILTER (WHERE t > $from30d), 0)::HUGEINT AS a30,
            coalesce(sum(alpha_rao) FILTER (WHERE t > $from14d AND t <= $from7d), 0)::HUGEINT AS prev7,
            count(*) AS observed, sum(alpha_rao)::HUGEINT AS total, min(t) AS first_ms, max(t) AS last_ms
       FROM b GROUP BY netuid`,
    {
      asOf: BigInt(asOfMs),
      from24h: BigInt(asOfMs - DAY_MS),
      from7d: BigInt(asOfMs - 7 * DAY_MS),
      from14d: BigInt(asOfMs - 14 * DAY_MS),
      from30d: BigInt(asOfMs - 30 * DAY_MS),
    },
  );
  const windows = new Map<number, WindowTotals>();
  for (const row of rows) {
    windows.set(Number(row['netuid']), {
      alpha24h: big(row['a24']),
      alpha7d: big(row['a7']),
      alpha30d: big(row['a30']),
      alphaPrev7d: big(row['prev7']),
      observedBurns: Number(row['observed']),
      alphaObservedTotal: big(row['total']),
      firstBurnMs: row['first_ms'] === null ? null : Number(row['first_ms']),
      lastBurnMs: row['last_ms'] === null ? null : Number(row['last_ms']),
    });
  }
  return windows;
}

/** Daily burns by netuid (history follows the subnet number, across re-registrations). */
async function readDaily(
  warehouse: Warehouse,
  oldestDay: string,
  asOfDay: string,
): Promise<Map<number, Map<string, DayBurns>>> {
  const rows = await warehouse.rows(
    `SELECT netuid, strftime(day, '%Y-%m-%d') AS day, sum(alpha_rao)::HUGEINT AS alpha_rao,
            sum(tao_rao)::HUGEINT AS tao_rao, sum(burns)::INTEGER AS burns,
            sum(unpriced_burns)::INTEGER AS unpriced_burns
       FROM burns_daily WHERE day BETWEEN $oldest::DATE AND $asOfDay::DATE
      GROUP BY netuid, day`,
    { oldest: oldestDay, asOfDay },
  );
  const daily = new Map<number, Map<string, DayBurns>>();
  for (const row of rows) {
    const netuid = Number(row['netuid']);
    const days = daily.get(netuid) ?? new Map<string, DayBurns>();
    daily.set(netuid, days);
    days.set(String(row['day']), {
      alphaRao: big(row['alpha_rao']),
      taoRao: row['tao_rao'] === null ? null : big(row['tao_rao']),
      burns: Number(row['burns']),
      unpricedBurns: Number(row['unpriced_burns']),
    });
  }
  return daily;
}

/**
 * The latest published claim per netuid. A claim published while the netuid belonged to another
 * registration (a different registered_at that day) is not shown for the subnet that reused the number.
 */
async function readClaims(warehouse: Warehouse): Promise<Map<number, ClaimRow>> {
  const rows = await warehouse.rows(
    `WITH current AS (
       SELECT netuid, arg_max(registered_at, day) AS registered_at FROM subnet_days GROUP BY netuid)
     SELECT c.netuid, c.text, c.name_at_source, c.source, strftime(c.reviewed, '%Y-%m-%d') AS reviewed
       FROM claims c LEFT JOIN current USING (netuid)
      WHERE NOT EXISTS (
        SELECT 1 FROM subnet_days s
         WHERE s.netuid = c.netuid AND s.day = c.published AND s.registered_at <> current.registered_at)
      QUALIFY row_number() OVER (PARTITION BY c.netuid ORDER BY c.published DESC, c.source) = 1`,
  );
  return new Map(
    rows.map((row) => [
      Number(row['netuid']),
      {
        text: String(row['text']),
        nameAtSource: row['name_at_source'] === null ? null : String(row['name_at_source']),
        source: String(row['source']),
        reviewed: row['reviewed'] === null ? null : String(row['reviewed']),
      },
    ]),
  );
}

function nullableBig(value: unknown): bigint | null {
  return value === null || value === undefined ? null : big(value);
}

function big(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(value);
  if (typeof value === 'string') return BigInt(value);
  return 0n;
}
