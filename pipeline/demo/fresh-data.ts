/**
 * A demo started on another day runs another sandbox chain (its blocks have other times and other hashes),
 * while ./data still holds the earlier one's collection. The collection refuses to mix them
 * (`collect.ts`, `ensureSameChain`); the demo, whose data is its own, sets the earlier warehouse, emission
 * samples and gateway state (its cached tax checks of the old chain) aside instead and starts afresh, saying so.
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc } from '../chain/rpc-client.js';
import { readChainIdentity, sameLastBlock } from '../warehouse/chain-identity.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';

/** The files set aside (renamed with a suffix), or none when the warehouse is new or of this chain. */
export async function setAsideOtherChain(
  chainUrl: string,
  /** `dataDir`: the demo's own folder; a warehouse outside it (SBM_WAREHOUSE set to a real one) is never moved. */
  files: { warehousePath: string; emissionsPath: string; dataDir: string; statePath?: string },
  now: Date,
): Promise<string[]> {
  if (!existsSync(files.warehousePath)) return [];
  if (!resolve(files.warehousePath).startsWith(`${resolve(files.dataDir)}/`)) return [];
  const rpc = await connectRpc({ url: chainUrl, concurrency: 2 });
  let same: boolean;
  try {
    const reader = new ChainReader(rpc);
    const genesis = await reader.blockHash(0);
    const head = await reader.finalizedHead();
    // Writable: the demo owns ./data, and an open applies the schema (a warehouse of an older demo may not
    // have the chain_identity table yet).
    const warehouse = await openWarehouse(files.warehousePath);
    let known: Awaited<ReturnType<typeof readChainIdentity>>;
    try {
      known = await readChainIdentity(warehouse, head.number);
    } finally {
      warehouse.close();
    }
    const lastSame =
      known.lastDay === null ||
      (
        await sameLastBlock(
          known.lastDay,
          (block) => reader.blockHash(block),
          (block) => reader.timestampOf(block),
        )
      ).same;
    same = (known.genesisHash === null || known.genesisHash === genesis) && lastSame;
  } finally {
    await rpc.close();
  }
  if (same) return [];
  const suffix = `.another-chain-${now.toISOString().replace(/[:.]/g, '-')}`;
  const moved: string[] = [];
  // The gateway's state too: its 24-hour tax checks, orders and demo keys were of the earlier chain.
  const state =
    files.statePath && resolve(files.statePath).startsWith(`${resolve(files.dataDir)}/`)
      ? [files.statePath]
      : [];
  for (const path of [files.warehousePath, files.emissionsPath, ...state]) {
    for (const file of [path, `${path}.wal`, `${path}-wal`, `${path}-shm`]) {
      if (!existsSync(file)) continue;
      await rename(file, `${file}${suffix}`);
      moved.push(`${file}${suffix}`);
    }
  }
  return moved;
}
