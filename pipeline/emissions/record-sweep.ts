/**
 * Stores one sample and the transitions it verifies, in one transaction: a crash leaves either the whole
 * sample with its events or nothing. A block already sampled (or older than the newest sample) is refused,
 * so the same block is never sampled twice and the tracks only move forward.
 */

import { insertRows } from '../warehouse/insert-rows.js';
import type { EmissionsDb } from './emissions-db.js';
import type { EmissionSweep } from './read-emission-sweep.js';
import { applySample, type EmissionEvent, type Track } from './transition-rule.js';

export interface RecordedSweep {
  recorded: boolean;
  /** Events the sample verified (empty when not recorded). */
  events: EmissionEvent[];
}

export async function latestSweepBlock(db: EmissionsDb): Promise<number | null> {
  const [row] = await db.rows('SELECT max(block) AS block FROM emission_sweeps');
  return row?.['block'] == null ? null : Number(row['block']);
}

export async function recordSweep(
  db: EmissionsDb,
  sweep: EmissionSweep,
  checkedAtMs: number,
): Promise<RecordedSweep> {
  return db.transaction(async () => {
    const latest = await latestSweepBlock(db);
    if (latest !== null && sweep.block <= latest) return { recorded: false, events: [] };
    const tracks = await readTracks(db);
    const events: RecordedSweep['events'] = [];
    const trackRows = sweep.subnets.map((subnet) => {
      const { track, event } = applySample(tracks.get(`${subnet.netuid}/${subnet.registeredAt}`) ?? null, {
        block: sweep.block,
        timeMs: sweep.timeMs,
        status: subnet.status,
      });
      if (event) events.push({ ...event, netuid: subnet.netuid, registeredAt: subnet.registeredAt });
      return [
        subnet.netuid,
        subnet.registeredAt,
        track.established,
        track.last.block,
        track.last.timeMs,
        track.last.status,
        track.prevBlock,
      ];
    });
    await insertRows(
      db,
      'INSERT INTO',
      'emission_sweeps',
      ['block', 'block_hash', 'block_time_ms', 'checked_at_ms', 'spec_version', 'subnets'],
      [[sweep.block, sweep.hash, sweep.timeMs, checkedAtMs, sweep.specVersion, sweep.subnets.length]],
    );
    await insertRows(
      db,
      'INSERT INTO',
      'emission_samples',
      [
        'block',
        'block_time_ms',
        'netuid',
        'registered_at',
        'name',
        'emission_enabled',
        'tao_in_rao',
        'alpha_in_rao',
        'alpha_out_rao',
        'status',
      ],
      sweep.subnets.map((subnet) => [
        sweep.block,
        sweep.timeMs,
        subnet.netuid,
        subnet.registeredAt,
        subnet.name,
        subnet.enabled,
        // Decimal text keeps u64 values exact on their way into HUGEINT.
        subnet.taoInRao.toString(),
        subnet.alphaInRao.toString(),
        subnet.alphaOutRao.toString(),
        subnet.status,
      ]),
    );
    await insertRows(
      db,
      'INSERT OR REPLACE INTO',
      'emission_tracks',
      ['netuid', 'registered_at', 'established', 'last_block', 'last_time_ms', 'last_status', 'prev_block'],
      trackRows,
    );
    await insertRows(
      db,
      'INSERT INTO',
      'emission_events',
      [
        'netuid',
        'registered_at',
        'kind',
        'from_block',
        'to_block',
        'detected_at_ms',
        'verified_block',
        'verified_at_ms',
      ],
      events.map((event) => [
        event.netuid,
        event.registeredAt,
        event.kind,
        event.fromBlock,
        event.toBlock,
        event.detectedAtMs,
        event.verifiedBlock,
        event.verifiedAtMs,
      ]),
    );
    return { recorded: true, events };
  });
}

async function readTracks(db: EmissionsDb): Promise<Map<string, Track>> {
  const rows = await db.rows('SELECT * FROM emission_tracks');
  const tracks = new Map<string, Track>();
  for (const row of rows) {
    tracks.set(`${row['netuid']}/${row['registered_at']}`, {
      established: (row['established'] as Track['established']) ?? null,
      last: {
        block: Number(row['last_block']),
        timeMs: Number(row['last_time_ms']),
        status: row['last_status'] as Track['last']['status'],
      },
      prevBlock: row['prev_block'] == null ? null : Number(row['prev_block']),
    });
  }
  return tracks;
}
