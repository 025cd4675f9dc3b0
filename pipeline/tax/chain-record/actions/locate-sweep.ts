/**
 * Where the chain's AlphaV2 migration deleted a holding. At the spec-473 upgrade (mainnet block 9,217,264,
 * 2026-10-05) `migrate_alpha_v2_and_unstake_dust_v1` (opentensor/subtensor
 * `pallets/subtensor/src/migrations/migrate_alpha_v2.rs`, tag v473) runs in the blocks' idle weight, outside any
 * extrinsic: it moves every V1 share row to V2 and then sweeps every position once. A position whose fee-free
 * sale value is under 1,000 rao is deleted, its value burned, and no event names its holder; a legacy position
 * worth 1,000 to 3,000,000 rao is unstaked to its coldkey with a `StakeRemoved` (that one is in the record, an
 * unstake outside any extrinsic: `economic-action.ts`).
 *
 * A deleted holding shows in the income ledger as a fall no action explains. For each such fall on a UK day
 * the migration can have run in (from the upgrade block to `SWEEP_WINDOW_BLOCKS` after it), the block is found
 * on the archive node by binary search, as `locate-moves.ts` does for swaps: the first block where the
 * position has lost half the fall. A fall found there is booked as one action: the alpha disposed of for
 * nothing (its value was burned, a negligible value), its block set aside from income. A fall outside the
 * window, or one the search does not place there, stays a point to check.
 */
import type { ChainReader } from '../../../chain/chain-reader.js';
import { runtimeSegments } from '../../../chain/runtime-segments.js';
import type { LedgerDay, UnexplainedChange } from '../ledger-days.js';
import { ALPHA_V2_SWEEP, type LedgerEvent } from '../ledger-event.js';
import { positionId, readStakesAtBlocks, type StakesAtBlock } from '../stake-at-blocks.js';
import type { EconomicAction } from './economic-action.js';

/** The first runtime without the V1 share maps, whose upgrade runs the migration. */
export const ALPHA_V2_SPEC = 473;
/**
 * Blocks after the upgrade in which the migration may still delete holdings: one day of 12-second blocks
 * (mainnet's took 1,308 blocks; it runs in idle weight, so a busy chain takes longer).
 */
export const SWEEP_WINDOW_BLOCKS = 7_200;
/** The sweep deletes a position whose fee-free sale value is under this (`migrate_alpha_v2.rs`). */
const DUST_RAO = 1_000n;

export const SWEEP_TREATMENT =
  "deleted by the chain's AlphaV2 migration (migrate_alpha_v2_and_unstake_dust_v1, run after the spec-473 " +
  'upgrade): a position worth under 1,000 RAO when sold without fee, removed with no event naming its holder ' +
  'and its value burned. A disposal for nothing (negligible value): no proceeds, its cost a loss';

/** The block of the upgrade to spec 473 or later inside the record (its first block), or null. */
export async function alphaV2UpgradeBlock(
  reader: ChainReader,
  from: number,
  to: number,
): Promise<number | null> {
  if (to <= from) return null;
  const segments = await runtimeSegments(reader, from, to);
  for (let i = 1; i < segments.length; i++) {
    const [before, after] = [segments[i - 1]!, segments[i]!];
    if (before.codec.specVersion < ALPHA_V2_SPEC && after.codec.specVersion >= ALPHA_V2_SPEC)
      return after.from;
  }
  return null;
}

export async function locateSweep(
  reader: ChainReader,
  falls: readonly UnexplainedChange[],
  /** The record's day ends, the opening first. */
  dayEnds: readonly LedgerDay[],
  stakes: ReadonlyMap<number, StakesAtBlock>,
  upgradeBlock: number | null,
): Promise<EconomicAction[]> {
  if (upgradeBlock === null) return [];
  const found: EconomicAction[] = [];
  for (const fall of falls) {
    if (fall.alphaRao >= 0n) continue;
    const index = dayEnds.findIndex((day) => day.date === fall.date);
    if (index <= 0) continue;
    const lo = Math.max(dayEnds[index - 1]!.block, upgradeBlock - 1);
    const hi = Math.min(dayEnds[index]!.block, upgradeBlock + SWEEP_WINDOW_BLOCKS);
    if (hi <= lo) continue;
    const position = fall.position;
    const id = positionId(position);
    const stakeReadAt = async (block: number) =>
      stakes.get(block) ??
      (await readStakesAtBlocks(reader, [position], [position.coldkey], [block], 1)).get(block)!;
    const stakeAt = async (block: number) => (await stakeReadAt(block)).stake.get(id) ?? 0n;
    const before = await stakeAt(lo);
    const threshold = before + fall.alphaRao / 2n;
    if (before === 0n || (await stakeAt(hi)) >= threshold) continue;
    let [low, high] = [lo, hi];
    while (high - low > 1) {
      const mid = low + Math.floor((high - low) / 2);
      if ((await stakeAt(mid)) < threshold) high = mid;
      else low = mid;
    }
    const block = high;
    // Only what the sweep does: the whole position gone at that block, worth under the sweep's 1,000 RAO
    // floor just before it (sold fee-free into the pool's reserves, SubnetTAO × alpha ÷ (SubnetAlphaIn +
    // alpha)). Any other fall stays a point to check.
    const [before1, after1] = await Promise.all([stakeReadAt(block - 1), stakeReadAt(block)]);
    const held = before1.stake.get(id) ?? 0n;
    if ((after1.stake.get(id) ?? 0n) !== 0n || held <= 0n) continue;
    const pool = before1.subnets.get(position.netuid);
    const worth =
      position.netuid === 0
        ? held
        : pool?.taoRao != null && pool.alphaInRao != null && pool.alphaInRao > 0n
          ? (held * pool.taoRao) / (pool.alphaInRao + held)
          : null;
    if (worth === null || worth >= DUST_RAO) continue;
    const time = new Date(await reader.timestampOf(block)).toISOString();
    const event: LedgerEvent = {
      coldkey: position.coldkey,
      block,
      // No chain event: the pack's own row, after every event of the block.
      event_index: -1,
      extrinsic_index: null,
      time,
      kind: ALPHA_V2_SWEEP,
      role: 'origin',
      hotkey: position.hotkey,
      netuid: position.netuid,
      tao_rao: '0',
      alpha_rao: null,
      fee_rao: null,
      counterpart_coldkey: null,
      counterpart_hotkey: null,
      counterpart_netuid: null,
    };
    found.push({
      kind: 'sweep',
      treatment: `${SWEEP_TREATMENT} (block ${block}; the upgrade was block ${upgradeBlock})`,
      block,
      time,
      events: [event],
      legs: [{ side: 'dispose', asset: 'alpha', holding: { ...position }, statedRao: null, valueTaoRao: 0n }],
      touches: [{ ...position }],
      flags: [],
    });
  }
  return found.sort((a, b) => a.block - b.block);
}
