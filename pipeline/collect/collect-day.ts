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
import { readRegisteredAt, readRegisteredAtMany, readSubnetPanel } from '../chain/subnet-panel.js';
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
  // The day's fixed reads do not depend on its blocks: its ends, its panel and the registration of every
  // subnet of the panel at both ends (what settles most burns' registrations) are read while the blocks are.
  const ends = (async () => {
    const [firstHash, lastHash, firstCodec, lastCodec] = await Promise.all([
      reader.blockHash(bounds.firstBlock),
      reader.blockHash(bounds.lastBlock),
      reader.codecOfBlock(bounds.firstBlock),
      reader.codecOfBlock(bounds.lastBlock),
    ]);
    const panel = await readSubnetPanel(reader, lastCodec, lastHash);
    const netuids = panel.map((s) => s.netuid);
    // Only where the runtime has the item: a day without burns must not fail for lack of it (a burn's
    // subnet left unread here is read after the blocks, as before).
    const registrations = (codec: typeof firstCodec, hash: string) =>
      codec.hasStorage('SubtensorModule', 'NetworkRegisteredAt')
        ? readRegisteredAtMany(reader, codec, hash, netuids)
        : new Map<number, number | null>();
    const [atFirst, atLast] = await Promise.all([
      registrations(firstCodec, firstHash),
      registrations(lastCodec, lastHash),
    ]);
    return { firstHash, lastHash, panel, registered: { atFirst, atLast } };
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

  const { firstHash, lastHash, panel, registered } = await ends;

  const registeredAt = await resolveRegistrations(
    reader,
    burns,
    hashes,
    firstHash,
    lastHash,
    bounds,
    options.concurrency,
    registered,
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
 * netuid registered to the same subnet at the day's first and last block is settled by those two reads (made
 * beside the blocks for every subnet of the panel, `known`); only on a day when a netuid changed hands is the
 * registration read at each burn's block.
 */
async function resolveRegistrations(
  reader: ChainReader,
  burns: BurnEvent[],
  hashes: Map<number, string>,
  firstHash: string,
  lastHash: string,
  bounds: DayBounds,
  concurrency: number,
  known: { atFirst: Map<number, number | null>; atLast: Map<number, number | null> },
): Promise<(burn: BurnEvent) => number> {
  const wholeDay = new Map<number, number>();
  const perBlock = new Map<string, number>();
  const netuids = [...new Set(burns.map((b) => b.netuid))];
  const unsettled: number[] = [];
  // A netuid the panel lacks (deregistered by the day's end) is read at both ends here.
  const missing = netuids.filter((netuid) => !known.atFirst.has(netuid) || !known.atLast.has(netuid));
  if (missing.length > 0) {
    const [firstCodec, lastCodec] = await Promise.all([
      reader.codecOfBlock(bounds.firstBlock),
      reader.codecOfBlock(bounds.lastBlock),
    ]);
    const [atFirst, atLast] = await Promise.all([
      readRegisteredAtMany(reader, firstCodec, firstHash, missing),
      readRegisteredAtMany(reader, lastCodec, lastHash, missing),
    ]);
    for (const netuid of missing) {
      known.atFirst.set(netuid, atFirst.get(netuid) ?? null);
      known.atLast.set(netuid, atLast.get(netuid) ?? null);
    }
  }
  for (const netuid of netuids) {
    const atFirst = known.atFirst.get(netuid) ?? null;
    if (atFirst !== null && atFirst === known.atLast.get(netuid)) wholeDay.set(netuid, atFirst);
    else unsettled.push(netuid);
  }
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
