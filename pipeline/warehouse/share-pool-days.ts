/**
 * The `share_pools` table, day by day: which collected days still need their pools read, and writing one
 * day's pools in one transaction (delete the day, append, record the read), so a day is whole or absent and
 * reading it twice changes nothing.
 */
import { dateValue, timestampTZValue } from '@duckdb/node-api';
import type { SharePool } from '../chain/share-pools.js';
import { epochDay } from '../time/utc-day.js';
import type { Warehouse } from './open-warehouse.js';

export interface PoolDay {
  /** `YYYY-MM-DD` */
  day: string;
  /** The day's last collected block: where its pools are read. */
  block: number;
  /** Today, collected only up to the finalized head. */
  partial: boolean;
}

export interface PoolDaySelection {
  /** First and last UTC day to consider (both included); default every collected day. */
  from?: string;
  to?: string;
  /** Read days again even when their pools were read at their last block already. */
  refresh?: boolean;
}

/**
 * Collected days (complete or partial) whose pools have not been read at the day's last collected block:
 * never read, or read before the day was collected further (a partial day, or one collected again).
 */
export async function poolDaysToRead(
  warehouse: Warehouse,
  selection: PoolDaySelection = {},
): Promise<PoolDay[]> {
  const rows = await warehouse.rows(
    `SELECT strftime(c.day, '%Y-%m-%d') AS day, c.last_block, c.partial
       FROM collected_days c
       LEFT JOIN share_pool_days s ON s.day = c.day
      WHERE (c.complete OR c.partial)
        AND c.day BETWEEN coalesce($from::DATE, DATE '0001-01-01') AND coalesce($to::DATE, DATE '9999-12-31')
        AND ($refresh OR s.block IS NULL OR s.block <> c.last_block)
      ORDER BY c.day`,
    { from: selection.from ?? null, to: selection.to ?? null, refresh: selection.refresh ?? false },
  );
  return rows.map((row) => ({
    day: String(row['day']),
    block: Number(row['last_block']),
    partial: Boolean(row['partial']),
  }));
}

export async function replacePoolDay(
  warehouse: Warehouse,
  day: PoolDay,
  pools: readonly SharePool[],
  readAt: Date,
): Promise<void> {
  await warehouse.transaction(async () => {
    for (const table of ['share_pools', 'share_pool_days']) {
      await warehouse.run(`DELETE FROM ${table} WHERE day = $day::DATE`, { day: day.day });
    }
    if (pools.length > 0) {
      const appender = await warehouse.connection.createAppender('share_pools');
      try {
        const dayValue = dateValue(epochDay(day.day));
        for (const pool of pools) {
          appender.appendDate(dayValue);
          appender.appendBigInt(BigInt(day.block));
          appender.appendInteger(pool.netuid);
          appender.appendBigInt(BigInt(pool.registeredAt));
          appender.appendVarchar(pool.hotkey);
          appender.appendHugeInt(pool.totalAlphaRao);
          if (pool.totalSharesBits === null) appender.appendNull();
          else appender.appendUHugeInt(pool.totalSharesBits);
          appender.appendUHugeInt(pool.totalShares.mantissa);
          appender.appendBigInt(pool.totalShares.exponent);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    }
    await warehouse.run(`INSERT INTO share_pool_days VALUES ($day::DATE, $block, $pools, $readAt)`, {
      day: day.day,
      block: BigInt(day.block),
      pools: pools.length,
      readAt: timestampTZValue(BigInt(readAt.getTime()) * 1000n),
    });
  });
}
