/**
 * Writes one collected day: delete that day's rows, append the new ones and mark the day collected, all in
 * one transaction. Running a day twice therefore changes nothing, and a crash before the commit leaves the
 * day as it was (absent or incomplete), so the next run simply collects it again.
 */
import { type DuckDBAppender, dateValue, timestampTZValue } from '@duckdb/node-api';
import { epochDay } from '../time/utc-day.js';
import type { DayRows } from './day-rows.js';
import type { Warehouse } from './open-warehouse.js';

export async function replaceDay(warehouse: Warehouse, rows: DayRows, runId: string): Promise<void> {
  const day = rows.day;
  await warehouse.transaction(async () => {
    for (const table of ['burns', 'staking_events', 'panel_prices', 'subnet_days', 'collected_days']) {
      await warehouse.run(`DELETE FROM ${table} WHERE day = $day::DATE`, { day });
    }
    const dayValue = dateValue(epochDay(day));

    await append(warehouse, 'burns', rows.burns, (a, b) => {
      a.appendBigInt(BigInt(b.block));
      a.appendInteger(b.eventIndex);
      appendNullable(a, b.extrinsicIndex, (v) => a.appendInteger(v));
      a.appendTimestampTZ(micros(b.blockTime));
      a.appendDate(dayValue);
      a.appendInteger(b.netuid);
      a.appendBigInt(BigInt(b.registeredAt));
      a.appendVarchar(b.kind);
      appendNullable(a, b.coldkey, (v) => a.appendVarchar(v));
      a.appendVarchar(b.hotkey);
      a.appendHugeInt(b.alphaRao);
      appendNullable(a, b.taoRao, (v) => a.appendHugeInt(v));
    });

    await append(warehouse, 'staking_events', rows.stakingEvents, (a, e) => {
      a.appendBigInt(BigInt(e.block));
      a.appendInteger(e.eventIndex);
      appendNullable(a, e.extrinsicIndex, (v) => a.appendInteger(v));
      a.appendTimestampTZ(micros(e.blockTime));
      a.appendDate(dayValue);
      a.appendVarchar(e.kind);
      a.appendVarchar(e.coldkey);
      appendNullable(a, e.hotkey, (v) => a.appendVarchar(v));
      appendNullable(a, e.netuid, (v) => a.appendInteger(v));
      appendNullable(a, e.taoRao, (v) => a.appendHugeInt(v));
      appendNullable(a, e.alphaRao, (v) => a.appendHugeInt(v));
      appendNullable(a, e.detail, (v) => a.appendVarchar(JSON.stringify(v)));
    });

    await append(warehouse, 'panel_prices', rows.panel, (a, p) => {
      a.appendDate(dayValue);
      a.appendInteger(p.netuid);
      a.appendBigInt(BigInt(p.registeredAt));
      a.appendBigInt(BigInt(p.panelBlock));
      appendNullable(a, p.subnetTaoRao, (v) => a.appendHugeInt(v));
      appendNullable(a, p.subnetAlphaInRao, (v) => a.appendHugeInt(v));
      a.appendBoolean(rows.partial);
    });

    await append(warehouse, 'subnet_days', rows.subnets, (a, s) => {
      a.appendDate(dayValue);
      a.appendInteger(s.netuid);
      a.appendBigInt(BigInt(s.registeredAt));
      a.appendVarchar(s.name);
      a.appendVarchar(s.symbol);
    });

    await warehouse.run(
      `INSERT INTO collected_days (day, first_block, last_block, last_block_time, complete, partial, run_id,
                                   last_block_hash)
       VALUES ($day::DATE, $first, $last, make_timestamptz($time::BIGINT * 1000), $complete, $partial, $run, $hash)`,
      {
        day,
        first: BigInt(rows.firstBlock),
        last: BigInt(rows.lastBlock),
        time: BigInt(rows.lastBlockTime),
        complete: rows.complete,
        partial: rows.partial,
        run: runId,
        hash: rows.lastBlockHash,
      },
    );
  });
}

async function append<T>(
  warehouse: Warehouse,
  table: string,
  items: readonly T[],
  row: (appender: DuckDBAppender, item: T) => void,
): Promise<void> {
  if (items.length === 0) return;
  const appender = await warehouse.connection.createAppender(table);
  try {
    for (const item of items) {
      row(appender, item);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

function appendNullable<T>(appender: DuckDBAppender, value: T | null, write: (value: T) => void): void {
  if (value === null) appender.appendNull();
  else write(value);
}

function micros(ms: number) {
  return timestampTZValue(BigInt(ms) * 1000n);
}
