/**
 * The tax objects of a published run (`pipeline/contract/tax-published.ts`): the network's staking yields,
 * the daily fiat prices, and every coldkey's staking events in up to 256 shards. They are built from the same
 * read-only warehouse session as the snapshots and published in the same run, so they switch with the same
 * manifest: all or nothing. They are written to the run as they are built (see `writeTaxObjects`).
 */
import type { z } from 'zod';
import { encodeValidJson } from '../amounts/exact-json.js';
import {
  type ColdkeyEvent,
  ColdkeyShard,
  coldkeyShardOf,
  TaxFiatPrices,
  TaxYields,
  taxPaths,
} from '../contract/tax-published.js';
import type { RunObject } from '../store/index.js';
import { coldkeyEvent, receiverOf } from '../tax/chain-record/coldkey-events.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';
import {
  type FiatDay,
  readFiatDays,
  readTokenFiatDays,
  streamColdkeySides,
} from '../warehouse/tax-queries.js';
import { yieldsOfWarehouse } from '../yields/warehouse-yields.js';
import { SnapshotInvalidError } from './render-run.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface TaxObjectsSummary {
  /** Coldkeys with at least one event, and the shards holding them. */
  coldkeys: number;
  shards: number;
}

/**
 * Builds the tax objects and hands each to `add` as soon as it is built and validated (the run writer:
 * it stores the object and keeps only its manifest entry). The coldkey shards come one at a time while the
 * events stream from the warehouse, so only the shard being built is held, whatever the history's size.
 */
export async function writeTaxObjects(
  warehouse: Warehouse,
  computedAt: Date,
  add: (object: RunObject) => Promise<void>,
): Promise<TaxObjectsSummary> {
  await add(encodeTaxObject(taxPaths.yields(), TaxYields, await yieldsOfWarehouse(warehouse, computedAt)));
  await add(encodeTaxObject(taxPaths.fiatPrices(), TaxFiatPrices, await fiatPrices(warehouse)));
  return writeShards(warehouse, add);
}

/** TAO's days, and the other tokens' (`assets`) when the warehouse has any. */
async function fiatPrices(warehouse: Warehouse): Promise<TaxFiatPrices> {
  const days = (await readFiatDays(warehouse)).map(fiatDay);
  const tokens = await readTokenFiatDays(warehouse);
  if (tokens.size === 0) return { days };
  return { days, assets: Object.fromEntries([...tokens].map(([asset, list]) => [asset, list.map(fiatDay)])) };
}

function fiatDay(day: FiatDay): TaxFiatPrices['days'][number] {
  const sources = [...new Set([day.usdSource, day.gbpSource].filter((s): s is string => s !== null))];
  const source = sources.length <= 1 ? (sources[0] ?? '') : `usd: ${day.usdSource}; gbp: ${day.gbpSource}`;
  return { date: day.date, usd: day.usd, gbp: day.gbp, source };
}

/**
 * One object per shard that has events, built while the events stream in shard order and handed to `add`
 * when the stream moves to the next shard: the shard being built is held as objects, none as bytes.
 */
async function writeShards(
  warehouse: Warehouse,
  add: (object: RunObject) => Promise<void>,
): Promise<TaxObjectsSummary> {
  let coldkeys = 0;
  let shards = 0;
  let shard: string | null = null;
  let current: Record<string, ColdkeyEvent[]> = {};
  const finish = async () => {
    if (shard === null) return;
    const object = encodeTaxObject(taxPaths.coldkeyShard(shard), ColdkeyShard, { shard, coldkeys: current });
    coldkeys += Object.keys(current).length;
    shards += 1;
    current = {};
    await add(object);
  };
  for await (const rows of streamColdkeySides(warehouse)) {
    for (const row of rows) {
      // The query and the tax module must agree on who an event concerns, and on the shard of each.
      const expected = row.role === 'origin' ? row.event.coldkey : receiverOf(row.event);
      if (row.coldkey !== expected || row.shard !== coldkeyShardOf(row.coldkey)) {
        throw new SnapshotInvalidError(
          `staking event ${row.event.block}/${row.event.eventIndex}: ${row.role} ${row.coldkey} in shard ${row.shard} does not match the event`,
        );
      }
      if (row.shard !== shard) {
        await finish();
        shard = row.shard;
      }
      const events = current[row.coldkey] ?? [];
      current[row.coldkey] = events;
      events.push(coldkeyEvent(row.event, row.role));
    }
  }
  await finish();
  return { coldkeys, shards };
}

/** A tax object validated against its schema and encoded as the run stores it. */
export function encodeTaxObject(path: string, schema: z.ZodType, value: unknown): RunObject {
  const json = encodeValidJson(schema, value);
  if (!json.ok) throw new SnapshotInvalidError(`${path} breaks the contract: ${json.problem}`);
  return { path, body: json.bytes, contentType: JSON_TYPE };
}
