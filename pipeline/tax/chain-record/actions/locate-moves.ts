/**
 * Where a move the record has no event for happened. A hotkey swap of a nominated validator moves every
 * nominator's stake to the new hotkey, but its `HotkeySwapped` names only the hotkey's owner: the nominator's
 * shard has nothing, and its day shows a fall on the old hotkey and a rise on the new one (`netAcrossHotkeys`
 * finds them). To keep each position's income exact (the reward before the swap on the old position, after it
 * on the new one) the swap's block is found on the archive node: a binary search over the day's blocks for the
 * first block where the old position has lost most of what moved (a swap moves it at once), then that block's
 * own events, decoded by name through its own metadata, name the swap. A move no such event explains stays a
 * netted move of the day. A found swap is then treated like one in the record: its block set aside on the old
 * and new positions, the day's income shown on the old one. Days whose move an event of the record already
 * names are not searched.
 */
import type { ChainReader } from '../../../chain/chain-reader.js';
import { account, smallInt } from '../../../chain/codec-values.js';
import { mapConcurrent } from '../../../chain/limiter.js';
import { ukDay } from '../../../time/uk-day.js';
import type { HoldingMove, LedgerDay } from '../ledger-days.js';
import type { LedgerEvent } from '../ledger-event.js';
import { positionId, readStakesAtBlocks, type StakesAtBlock } from '../stake-at-blocks.js';
import type { EconomicAction } from './economic-action.js';

const SWAPS = new Set(['HotkeySwapped', 'HotkeySwappedOnSubnet', 'ColdkeySwapped']);

/** Moves searched at once: each search is a chain of round trips, so several hide each other's latency. */
const SEARCHES_AT_ONCE = 8;
/**
 * Levels of a search read at once: the midpoints the next two steps can ask for (three blocks) are read
 * together, so a day of 48 blocks takes three round trips of reads instead of six. The search takes the same
 * steps, and finds the same block, as one read a step.
 */
const LEVELS_AT_ONCE = 2;

/**
 * The first block in (lo, hi] where `fell` holds, by binary search (`hi` when none before it does), each
 * round reading the midpoints of the next `LEVELS_AT_ONCE` steps at once.
 */
export async function searchFirstFallen(
  lo: number,
  hi: number,
  fell: (block: number) => Promise<boolean>,
): Promise<number> {
  while (hi - lo > 1) {
    const probes = new Map<number, Promise<boolean>>();
    const plan = (low: number, high: number, levels: number) => {
      if (levels === 0 || high - low <= 1) return;
      const mid = low + Math.floor((high - low) / 2);
      const probe = fell(mid);
      // A probe the search does not take is not awaited: its failure is not the search's.
      probe.catch(() => undefined);
      probes.set(mid, probe);
      plan(low, mid, levels - 1);
      plan(mid, high, levels - 1);
    };
    plan(lo, hi, LEVELS_AT_ONCE);
    for (let level = 0; level < LEVELS_AT_ONCE && hi - lo > 1; level++) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (await probes.get(mid)!) hi = mid;
      else lo = mid;
    }
  }
  return hi;
}

export async function locateMoves(
  reader: ChainReader,
  moves: readonly HoldingMove[],
  /** The record's day ends, the opening first. */
  dayEnds: readonly LedgerDay[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
  named: readonly EconomicAction[] = [],
): Promise<EconomicAction[]> {
  const found = new Map<number, EconomicAction>();
  const namedDays = new Set(named.filter((a) => a.kind === 'key-swap').map((a) => ukDay(Date.parse(a.time))));
  // Each move's search on the chain, several at once; what they find is taken in the moves' order.
  const searched = await mapConcurrent(moves, SEARCHES_AT_ONCE, async (move) => {
    if (namedDays.has(move.date)) return null;
    const index = dayEnds.findIndex((day) => day.date === move.date);
    if (index <= 0) return null;
    const [start, end] = [dayEnds[index - 1]!, dayEnds[index]!];
    const [coldkey, hotkey] = move.from[0]!.split('/') as [string, string];
    const from = { coldkey, hotkey, netuid: move.netuid };
    const id = positionId(from);
    const before = stakes.get(start.block)?.stake.get(id) ?? 0n;
    const threshold = before - move.alphaRao / 2n;
    const fell = async (block: number) => {
      const read = await readStakesAtBlocks(reader, [from], [coldkey], [block], 1);
      return (read.get(block)?.stake.get(id) ?? 0n) < threshold;
    };
    const block = await searchFirstFallen(start.block, end.block, fell);
    const hash = await reader.blockHash(block);
    const version = await reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
    const codec = await reader.codec(version.specVersion, hash);
    const { events, timeMs } = await reader.eventsAndTime(hash);
    const swap = codec.decodeEvents(events).find((e) => e.pallet === 'SubtensorModule' && SWAPS.has(e.name));
    return swap ? { coldkey, block, swap, timeMs } : null;
  });
  for (const search of searched) {
    if (!search) continue;
    const { coldkey, block, swap, timeMs } = search;
    const time = new Date(timeMs).toISOString();
    if (found.has(block)) continue;
    const f = swap.fields;
    const isColdkeySwap = swap.name === 'ColdkeySwapped';
    const event: LedgerEvent = {
      coldkey,
      block,
      event_index: swap.index,
      extrinsic_index: swap.extrinsicIndex,
      time,
      kind: swap.name as LedgerEvent['kind'],
      role: 'destination',
      hotkey: isColdkeySwap ? null : account(f[1]),
      netuid: swap.name === 'HotkeySwappedOnSubnet' ? smallInt(f[3]) : null,
      tao_rao: null,
      alpha_rao: null,
      fee_rao: null,
      counterpart_coldkey: account(f[0]),
      counterpart_hotkey: null,
      counterpart_netuid: null,
      ...(isColdkeySwap ? {} : { new_hotkey: account(f[2]) }),
    };
    found.set(block, {
      kind: 'key-swap',
      treatment: isColdkeySwap
        ? 'coldkey swapped: the same holdings under the new coldkey, not a disposal and not income'
        : `hotkey swapped by its owner (${swap.name}, read from the chain: the event names the hotkey's owner, not this coldkey): this coldkey's stake on the old hotkey moved to the new one, the same alpha, not a disposal and not income`,
      block,
      time,
      events: [event],
      legs: [],
      touches: [],
      flags: [],
      swap: isColdkeySwap
        ? { kind: 'coldkey', oldColdkey: account(f[0]), newColdkey: account(f[1]) }
        : {
            kind: 'hotkey',
            oldHotkey: account(f[1]),
            newHotkey: account(f[2]),
            netuid: swap.name === 'HotkeySwappedOnSubnet' ? smallInt(f[3]) : null,
          },
    });
  }
  return [...found.values()].sort((a, b) => a.block - b.block);
}
