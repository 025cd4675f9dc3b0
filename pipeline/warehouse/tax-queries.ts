/**
 * What the tax objects of a published run need from the warehouse: the days whose share pools can be
 * compared, the pools and pool reserves of a day, the fiat prices, and every staking event from the side of
 * each coldkey it concerns, streamed shard by shard so that a large warehouse is never held in memory.
 * Amounts stay bigint; prices stay the decimal text they are stored as.
 */
import { safeFloatFromU64F64, safeFloatOf } from '../amounts/safe-float.js';
import type { SharePool } from '../chain/share-pools.js';
import type { StakingEvent, StakingKind } from '../chain/staking-event.js';
import type { Warehouse } from './open-warehouse.js';

/**
 * Complete days (not today) whose pools were read at the day's last block, ascending: the days a yield
 * window may start and end on.
 */
export async function readPoolDays(warehouse: Warehouse): Promise<string[]> {
  const rows = await warehouse.rows(
    `SELECT strftime(c.day, '%Y-%m-%d') AS day
       FROM collected_days c JOIN share_pool_days s ON s.day = c.day AND s.block = c.last_block
      WHERE c.complete AND NOT c.partial
      ORDER BY c.day`,
  );
  return rows.map((row) => String(row['day']));
}

/** The last complete collected day, else the last collected day; null when nothing is collected. */
export async function readLastCollectedDay(warehouse: Warehouse): Promise<string | null> {
  const rows = await warehouse.rows(
    `SELECT strftime(coalesce(max(day) FILTER (WHERE complete AND NOT partial), max(day)), '%Y-%m-%d') AS day
       FROM collected_days`,
  );
  const day = rows[0]?.['day'];
  return typeof day === 'string' ? day : null;
}

export async function readPoolsOfDay(warehouse: Warehouse, day: string): Promise<SharePool[]> {
  const rows = await warehouse.rows(
    // `*`: a warehouse written before the SafeFloat columns, opened read-only (no schema applied), lacks them.
    `SELECT * FROM share_pools WHERE day = $day::DATE ORDER BY netuid, hotkey`,
    { day },
  );
  return rows.map((row) => {
    const bits = row['total_shares_bits'] == null ? null : BigInt(row['total_shares_bits'] as bigint);
    const mantissa = row['total_shares_mantissa'] ?? null;
    return {
      netuid: Number(row['netuid']),
      registeredAt: Number(row['registered_at']),
      hotkey: String(row['hotkey']),
      totalAlphaRao: BigInt(row['total_alpha_rao'] as bigint),
      // A row written before the SafeFloat columns existed is a V1 row: converted as the chain converts it.
      totalShares:
        mantissa === null
          ? safeFloatFromU64F64(bits ?? 0n)
          : safeFloatOf(BigInt(mantissa as bigint), BigInt(row['total_shares_exponent'] as bigint)),
      totalSharesBits: bits,
    };
  });
}

export interface DayReserves {
  netuid: number;
  registeredAt: number;
  subnetTaoRao: bigint | null;
  subnetAlphaInRao: bigint | null;
}

/** Every subnet's pool reserves on a day's panel. */
export async function readReservesOfDay(warehouse: Warehouse, day: string): Promise<DayReserves[]> {
  const rows = await warehouse.rows(
    `SELECT netuid, registered_at, subnet_tao_rao, subnet_alpha_in_rao
       FROM panel_prices WHERE day = $day::DATE ORDER BY netuid`,
    { day },
  );
  const big = (value: unknown) => (value === null ? null : BigInt(value as bigint));
  return rows.map((row) => ({
    netuid: Number(row['netuid']),
    registeredAt: Number(row['registered_at']),
    subnetTaoRao: big(row['subnet_tao_rao']),
    subnetAlphaInRao: big(row['subnet_alpha_in_rao']),
  }));
}

export interface FiatDay {
  date: string;
  /** Decimal text as stored (DECIMAL(20, 8)), or null when that currency has no price that day. */
  usd: string | null;
  gbp: string | null;
  usdSource: string | null;
  gbpSource: string | null;
}

/** Every day of `fx_daily`, oldest first. */
export async function readFiatDays(warehouse: Warehouse): Promise<FiatDay[]> {
  const rows = await warehouse.rows(
    `SELECT strftime(day, '%Y-%m-%d') AS date,
            any_value(CAST(tao_price AS VARCHAR)) FILTER (WHERE currency = 'usd') AS usd,
            any_value(CAST(tao_price AS VARCHAR)) FILTER (WHERE currency = 'gbp') AS gbp,
            any_value(source) FILTER (WHERE currency = 'usd') AS usd_source,
            any_value(source) FILTER (WHERE currency = 'gbp') AS gbp_source
       FROM fx_daily GROUP BY day ORDER BY day`,
  );
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return rows.map((row) => ({
    date: String(row['date']),
    usd: text(row['usd']),
    gbp: text(row['gbp']),
    usdSource: text(row['usd_source']),
    gbpSource: text(row['gbp_source']),
  }));
}

/** Every day of `token_fx_daily`, per asset (`USDT`), oldest first, as `readFiatDays` gives TAO's. */
export async function readTokenFiatDays(warehouse: Warehouse): Promise<Map<string, FiatDay[]>> {
  const rows = await warehouse.rows(
    `SELECT asset, strftime(day, '%Y-%m-%d') AS date,
            any_value(CAST(price AS VARCHAR)) FILTER (WHERE currency = 'usd') AS usd,
            any_value(CAST(price AS VARCHAR)) FILTER (WHERE currency = 'gbp') AS gbp,
            any_value(source) FILTER (WHERE currency = 'usd') AS usd_source,
            any_value(source) FILTER (WHERE currency = 'gbp') AS gbp_source
       FROM token_fx_daily GROUP BY asset, day ORDER BY asset, day`,
  );
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const out = new Map<string, FiatDay[]>();
  for (const row of rows) {
    const asset = String(row['asset']);
    out.set(asset, [
      ...(out.get(asset) ?? []),
      {
        date: String(row['date']),
        usd: text(row['usd']),
        gbp: text(row['gbp']),
        usdSource: text(row['usd_source']),
        gbpSource: text(row['gbp_source']),
      },
    ]);
  }
  return out;
}

/** A staking event and one coldkey it concerns, with that coldkey's shard. */
export interface ColdkeySideRow {
  /** First byte of SHA-256 of `coldkey`, hex (as `coldkeyShardOf`, computed by DuckDB's `sha256`). */
  shard: string;
  coldkey: string;
  role: 'origin' | 'destination';
  event: StakingEvent;
}

/**
 * Every staking event once for its origin coldkey and once more for the receiver of a `Transfer` (`to`), a
 * `StakeTransferred` (`destination_coldkey`) or a `ColdkeySwapped` (`new_coldkey`), a subnet's account never
 * one of them (the TAO legs of staking), ordered by (shard, coldkey, block, event index, origin
 * first), in chunks as DuckDB produces them.
 */
export async function* streamColdkeySides(warehouse: Warehouse): AsyncGenerator<ColdkeySideRow[]> {
  // A holder's recycles and burns are in `burns`: they join its staking events as AlphaRecycled/AlphaBurned.
  const result = await warehouse.connection.stream(
    `WITH staking AS (
       SELECT block, event_index, extrinsic_index, block_time, kind, coldkey, hotkey, netuid, tao_rao, alpha_rao,
              detail
         FROM staking_events
       UNION ALL
       SELECT block, event_index, extrinsic_index, block_time,
              CASE kind WHEN 'recycle' THEN 'AlphaRecycled' ELSE 'AlphaBurned' END AS kind,
              coldkey, hotkey, netuid, NULL AS tao_rao, alpha_rao, NULL AS detail
         FROM burns WHERE coldkey IS NOT NULL),
     e AS (
       SELECT *,
              CASE WHEN kind = 'Transfer' AND (detail->>'to_subnet') IS NULL THEN (detail->>'to')
                   WHEN kind = 'StakeTransferred' THEN (detail->>'destination_coldkey')
                   WHEN kind = 'ColdkeySwapped' THEN (detail->>'new_coldkey') END AS receiver
         FROM staking),
     sides AS (
       -- A subnet's own account is nobody's record: its side of a staking transfer is left out.
       SELECT 'origin' AS role, coldkey AS subject, * FROM e
        WHERE NOT (kind = 'Transfer' AND (detail->>'from_subnet') IS NOT NULL)
       UNION ALL
       SELECT 'destination' AS role, receiver AS subject, * FROM e WHERE receiver IS NOT NULL)
     SELECT substr(sha256(subject), 1, 2) AS shard, subject, role, block, event_index, extrinsic_index,
            epoch_ms(block_time) AS time_ms, kind, coldkey, hotkey, netuid, tao_rao, alpha_rao,
            CAST(detail AS VARCHAR) AS detail
       FROM sides
      ORDER BY shard, subject, block, event_index, role DESC`,
  );
  for await (const chunk of result.yieldRowObjectJs()) {
    yield chunk.map((row) => ({
      shard: String(row['shard']),
      coldkey: String(row['subject']),
      role: row['role'] === 'destination' ? 'destination' : 'origin',
      event: {
        block: Number(row['block']),
        eventIndex: Number(row['event_index']),
        extrinsicIndex: row['extrinsic_index'] === null ? null : Number(row['extrinsic_index']),
        blockTime: Number(row['time_ms']),
        kind: String(row['kind']) as StakingKind,
        coldkey: String(row['coldkey']),
        hotkey: row['hotkey'] === null ? null : String(row['hotkey']),
        netuid: row['netuid'] === null ? null : Number(row['netuid']),
        taoRao: row['tao_rao'] === null ? null : BigInt(row['tao_rao'] as bigint),
        alphaRao: row['alpha_rao'] === null ? null : BigInt(row['alpha_rao'] as bigint),
        detail: row['detail'] === null ? null : (JSON.parse(String(row['detail'])) as StakingEvent['detail']),
      },
    }));
  }
}
