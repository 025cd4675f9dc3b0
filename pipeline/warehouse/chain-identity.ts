/**
 * Which chain a warehouse holds: its genesis hash, recorded by the first collection, and each collected day's
 * last block hash (`collected_days.last_block_hash`). A collection checks both against the node before it
 * writes anything (`pipeline/collect/collect.ts`), so a warehouse is never filled from two chains: another
 * network, a node that lost or replaced a block, or a sandbox started on another day (its blocks have other
 * times and other hashes).
 */
import { timestampTZValue } from '@duckdb/node-api';
import { ChainDataError } from '../chain/chain-errors.js';
import type { Warehouse } from './open-warehouse.js';

export interface ChainIdentity {
  genesisHash: string | null;
  /**
   * The latest collected day whose last block the node has (at or below its head): that block, its hash (null
   * where it was collected before hashes were kept) and its timestamp (milliseconds), which the same block of
   * the same chain always has. A node behind every collected day has nothing to compare yet.
   */
  lastDay: { day: string; block: number; hash: string | null; timeMs: number } | null;
}

export async function readChainIdentity(warehouse: Warehouse, nodeHead: number): Promise<ChainIdentity> {
  const genesis = await warehouse.rows('SELECT genesis_hash FROM chain_identity LIMIT 1');
  const last = await warehouse.rows(
    `SELECT strftime(day, '%Y-%m-%d') AS day, last_block, last_block_hash,
            epoch_ms(last_block_time) AS time_ms
       FROM collected_days WHERE last_block <= $head ORDER BY day DESC LIMIT 1`,
    { head: BigInt(nodeHead) },
  );
  const row = last[0];
  return {
    genesisHash: (genesis[0]?.['genesis_hash'] as string | undefined) ?? null,
    lastDay: row
      ? {
          day: String(row['day']),
          block: Number(row['last_block']),
          hash: row['last_block_hash'] == null ? null : String(row['last_block_hash']),
          timeMs: Number(row['time_ms']),
        }
      : null,
  };
}

/** Records the genesis hash of the chain a warehouse is first collected from (once). */
export async function recordGenesis(warehouse: Warehouse, genesisHash: string, at: Date): Promise<void> {
  await warehouse.run(
    `INSERT INTO chain_identity SELECT $hash, $at WHERE NOT EXISTS (SELECT 1 FROM chain_identity)`,
    { hash: genesisHash, at: timestampTZValue(BigInt(at.getTime()) * 1000n) },
  );
}

/**
 * Whether the node still has the block the warehouse's latest day ends with: the same hash, or (for a day
 * collected before hashes were kept) the same timestamp. `hashOf`/`timeOf` read the node.
 */
export async function sameLastBlock(
  lastDay: NonNullable<ChainIdentity['lastDay']>,
  hashOf: (block: number) => Promise<string>,
  timeOf: (block: number) => Promise<number>,
): Promise<{ same: boolean; found: string }> {
  if (lastDay.hash !== null) {
    const hash = await hashOf(lastDay.block).catch(missingOnly);
    return {
      same: hash === lastDay.hash,
      found: `${lastDay.hash} there and ${hash ?? 'unknown'} on the node`,
    };
  }
  const time = await timeOf(lastDay.block).catch(missingOnly);
  return {
    same: time === lastDay.timeMs,
    found: `stamped ${new Date(lastDay.timeMs).toISOString()} there and ${time === null ? 'unknown' : new Date(time).toISOString()} on the node`,
  };
}

/** A block the node does not have reads as missing; any other failure (a timeout, a lost socket) is thrown. */
function missingOnly(error: unknown): null {
  if (error instanceof ChainDataError) return null;
  throw error;
}
