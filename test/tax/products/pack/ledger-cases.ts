/**
 * Small hand-made chain states for the cases the sandbox cannot produce (a slash, a deregistration, a netuid
 * registered again): stake per position at a few blocks, written as a customer's accountant would describe
 * them. Used with the real income ledger and events → transactions mapping, never with a stand-in of them.
 */

import type { LedgerDay } from '../../../../pipeline/tax/chain-record/ledger-days.js';
import type { StakesAtBlock, SubnetAtBlock } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';

export const TAO = 1_000_000_000n;

/** A block every 10 minutes from 00:00Z on the first day (a winter month: UK days are UTC days). */
export const START_MS = Date.parse('2026-01-10T00:00:00Z');
export const BLOCK_MS = 600_000;
export const BLOCKS_PER_DAY = 144;

export function timeOfBlock(block: number): Date {
  return new Date(START_MS + block * BLOCK_MS);
}

/** Day `i`'s last block (day 0 is 2026-01-10). */
export function dayOf(i: number): LedgerDay {
  const block = (i + 1) * BLOCKS_PER_DAY - 1;
  return { date: timeOfBlock(block).toISOString().slice(0, 10), block, timeMs: timeOfBlock(block).getTime() };
}

export interface BlockState {
  stake?: Record<string, bigint>;
  subnets?: Record<number, Partial<SubnetAtBlock>>;
  free?: Record<string, bigint>;
}

/** Stakes at blocks; every subnet's pool is 1 TAO per alpha and registered at block 1 unless given. */
export function stakesOf(states: Record<number, BlockState>): Map<number, StakesAtBlock> {
  const map = new Map<number, StakesAtBlock>();
  for (const [blockText, state] of Object.entries(states)) {
    const block = Number(blockText);
    const subnets = new Map<number, SubnetAtBlock>();
    for (const id of Object.keys(state.stake ?? {})) {
      const netuid = Number(id.split('/')[2]);
      subnets.set(netuid, {
        registeredAt: netuid === 0 ? 0 : 1,
        taoRao: 1000n * TAO,
        alphaInRao: 1000n * TAO,
      });
    }
    for (const [netuid, subnet] of Object.entries(state.subnets ?? {})) {
      subnets.set(Number(netuid), { ...subnets.get(Number(netuid))!, ...subnet });
    }
    const stake = new Map(Object.entries(state.stake ?? {}));
    map.set(block, {
      block,
      stake,
      held: [...stake]
        .filter(([, rao]) => rao > 0n)
        .map(([id]) => {
          const [coldkey, hotkey, netuid] = id.split('/');
          return { coldkey: coldkey!, hotkey: hotkey!, netuid: Number(netuid) };
        }),
      subnets,
      free: new Map(Object.entries(state.free ?? {})),
    });
  }
  return map;
}
