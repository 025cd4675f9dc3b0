/**
 * One UTC day from the chain: every block's burns and staking events, each burn's subnet registration
 * block, and the panel (subnets and pool reserves at the day's last block, or at the head for today).
 */

import type { BurnEvent } from '../chain/burn-event.js';
import type { ChainReader } from '../chain/chain-reader.js';
import { classifyBlock } from '../chain/classify-events.js';
import type { DayBounds } from '../chain/day-bounds.js';
import { mapConcurrent } from '../chain/limiter.js';
import { readBlocks } from '../chain/read-blocks.js';
import type { StakingEvent } from '../chain/staking-event.js';
import { readRegisteredAt, readSubnetPanel } from '../chain/subnet-panel.js';
import type { BurnRow, DayRows } from '../warehouse/day-rows.js';

export interface CollectDayOptions {
  concurrency: number;
  onBlocks?: (count: number) => void;
  signal?: AbortSignal;
}

export async function collectDay(
  reader: ChainReader,
  bounds: DayBounds,
  options: CollectDayOptions,
): Promise<DayRows> {
  const burns: BurnEvent[] = [];
  const staking: StakingEvent[] = [];
  const hashes = new Map<number, string>();
  let lastBlockTime = 0;
  let read = 0;
  // The day's ends and its panel do not depend on its blocks: read them while the blocks are read.
  const ends = (async () => {
    const firstHash = await reader.blockHash(bounds.firstBlock);
    const lastHash = await reader.blockHash(bounds.lastBlock);
    const panelCodec = await reader.codecOfBlock(bounds.lastBlock);
    const panel = await readSubnetPanel(reader, panelCodec, lastHash, options.concurrency);
    return { firstHash, lastHash, panel };
  })();
  // Awaited below; a failure while the blocks are still being read must not go unhandled meanwhile.
  ends.catch(() => undefined);
  await readBlocks(reader, bounds.firstBlock, bounds.lastBlock, {
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
    onBlock: (block) => {
      const found = classifyBlock(block);
      if (found.burns.length > 0) hashes.set(block.number, block.hash);
      burns.push(...found.burns);
      staking.push(...found.staking);
      if (block.number === bounds.lastBlock) lastBlockTime = block.timeMs;
      read += 1;
      if (read % 100 === 0) options.onBlocks?.(100);
    },
  });
  options.onBlocks?.(read % 100);

  const { firstHash, lastHash, panel } = await ends;

  const registeredAt = await resolveRegistrations(
    reader,
    burns,
    hashes,
    firstHash,
    lastHash,
    bounds,
    options.concurrency,
  );
  const burnRows: BurnRow[] = burns.map((burn) => ({ ...burn, registeredAt: registeredAt(burn) }));

  const byKey = (a: { block: number; eventIndex: number }, b: { block: number; eventIndex: number }) =>
    a.block - b.block || a.eventIndex - b.eventIndex;
  return {
    day: bounds.day,
    firstBlock: bounds.firstBlock,
    lastBlock: bounds.lastBlock,
    lastBlockTime,
    lastBlockHash: lastHash,
    complete: !bounds.partial,
    partial: bounds.partial,
    burns: burnRows.sort(byKey),
    stakingEvents: staking.sort(byKey),
    panel: panel.map((s) => ({
      netuid: s.netuid,
      registeredAt: s.registeredAt,
      panelBlock: bounds.lastBlock,
      subnetTaoRao: s.subnetTaoRao,
      subnetAlphaInRao: s.subnetAlphaInRao,
    })),
    subnets: panel.map((s) => ({
      netuid: s.netuid,
      registeredAt: s.registeredAt,
      name: s.name,
      symbol: s.symbol,
    })),
  };
}

/**
 * A burn belongs to the registration of its netuid at the burn's block. Registrations change rarely, so a
 * netuid registered to the same subnet at the day's first and last block is settled with two reads; only
 * on a day when a netuid changed hands is the registration read at each burn's block.
 */
async function resolveRegistrations(
  reader: ChainReader,
  burns: BurnEvent[],
  hashes: Map<number, string>,
  firstHash: string,
  lastHash: string,
  bounds: DayBounds,
  concurrency: number,
): Promise<(burn: BurnEvent) => number> {
  const firstCodec = await reader.codecOfBlock(bounds.firstBlock);
  const lastCodec = await reader.codecOfBlock(bounds.lastBlock);
  const wholeDay = new Map<number, number>();
  const perBlock = new Map<string, number>();
  const netuids = [...new Set(burns.map((b) => b.netuid))];
  const unsettled: number[] = [];
  await mapConcurrent(netuids, concurrency, async (netuid) => {
    const atFirst = await readRegisteredAt(reader, firstCodec, firstHash, netuid);
    const atLast = await readRegisteredAt(reader, lastCodec, lastHash, netuid);
    if (atFirst !== null && atFirst === atLast) wholeDay.set(netuid, atFirst);
    else unsettled.push(netuid);
  });
  const lookups = [
    ...new Set(burns.filter((b) => unsettled.includes(b.netuid)).map((b) => `${b.netuid}@${b.block}`)),
  ];
  await mapConcurrent(lookups, concurrency, async (key) => {
    const [netuid, block] = key.split('@').map(Number) as [number, number];
    const hash = hashes.get(block) ?? (await reader.blockHash(block));
    const codec = await reader.codecOfBlock(block);
    perBlock.set(key, (await readRegisteredAt(reader, codec, hash, netuid)) ?? 0);
  });
  return (burn) => wholeDay.get(burn.netuid) ?? perBlock.get(`${burn.netuid}@${burn.block}`) ?? 0;
}
