import type { Account } from './accounts.js';
import { MAX_DUST_TAO, MIN_PAYOUT_TAO } from './alpha-v2-migration.js';
import type { Position } from './position.js';
import { rng } from './random.js';
import type { Staker } from './staking-action.js';

/**
 * Small positions that spec 473's sweep settles (`alpha-v2-migration.ts`): held since genesis in `Alpha`
 * (V1), never written since, so the migration meets them as legacy rows. `dust` ones are worth under
 * 1,000 rao at the sweep (deleted), `legacy` ones between 1,000 and 3,000,000 rao (unstaked to the
 * coldkey). They exist only in worlds with a spec-473 block, and are drawn from their own stream so
 * that every other draw of the world is unchanged.
 */
export interface SweepPosition {
  staker: Staker;
  position: Position;
  target: 'dust' | 'legacy';
  /** Alpha at genesis (shares at a share price of one). */
  alpha: bigint;
  /** The TAO value it was sized for at the spec-473 block. */
  value: bigint;
}

export interface SweepPlanInputs {
  seed: string;
  stakers: readonly Staker[];
  validators: readonly Account[];
  /** Pools no sweep position may sit in: the swapped hotkey's and the dissolved subnet's (written in 425). */
  excludedHotkey: number;
  excludedNetuid: number;
  position(hotkeyIndex: number, netuid: number): Position;
  /** The share price's growth from genesis to the spec-473 block, as a fraction. */
  growth(pool: string): { numerator: bigint; denominator: bigint };
  /** SubnetTAO and SubnetAlphaIn at the spec-473 block (null: no pool). */
  reserves(netuid: number): { tao: bigint; alphaIn: bigint } | null;
}

/** Who holds which: the demo coldkey two of each on subnets; three others one of each; one root holder. */
const HOLDERS: Array<{ index: number; subnet: Array<'dust' | 'legacy'>; root: Array<'dust' | 'legacy'> }> = [
  { index: 0, subnet: ['dust', 'legacy', 'dust', 'legacy'], root: [] },
  { index: 3, subnet: ['dust', 'legacy'], root: [] },
  { index: 7, subnet: ['legacy', 'dust'], root: [] },
  { index: 11, subnet: ['dust', 'legacy'], root: [] },
  { index: 5, subnet: [], root: ['dust', 'legacy'] },
];

/** Values aimed at, well inside each band so that rounding and pool drift cannot move a position out of it. */
const DUST_VALUES: [bigint, bigint] = [50n, (MIN_PAYOUT_TAO * 6n) / 10n];
const LEGACY_VALUES: [bigint, bigint] = [50_000n, MAX_DUST_TAO / 2n];

export function planSweepPositions(inputs: SweepPlanInputs): SweepPosition[] {
  const random = rng(inputs.seed, 'stakers/alpha-v2-sweep');
  const pools = new Set<string>();
  for (const staker of inputs.stakers) for (const p of staker.drawable) pools.add(p.pool);
  const usable = [...pools]
    .map((pool) => pool.split(':').map(Number) as [number, number])
    .filter(([hotkey, netuid]) => hotkey !== inputs.excludedHotkey && netuid !== inputs.excludedNetuid)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const planned: SweepPosition[] = [];
  for (const holder of HOLDERS) {
    const staker = inputs.stakers[holder.index];
    if (!staker) continue;
    const held = new Set(staker.positions.map((p) => p.pool));
    for (const [targets, root] of [
      [holder.subnet, false],
      [holder.root, true],
    ] as const) {
      const candidates = usable.filter(
        ([hotkey, netuid]) =>
          (netuid === 0) === root && !held.has(`${hotkey}:${netuid}`) && inputs.reserves(netuid) !== null,
      );
      for (const target of targets) {
        if (candidates.length === 0) break;
        const [hotkey, netuid] = candidates.splice(random.int(0, candidates.length - 1), 1)[0]!;
        const position = inputs.position(hotkey, netuid);
        const [lo, hi] = target === 'dust' ? DUST_VALUES : LEGACY_VALUES;
        const value = random.bigint(lo, hi);
        const reserves = inputs.reserves(netuid)!;
        // Alpha at the sweep for this TAO value (1:1 on root), back to genesis through the share price's growth.
        const atSweep = netuid === 0 ? value : (value * reserves.alphaIn) / reserves.tao;
        const growth = inputs.growth(position.pool);
        const alpha = (atSweep * growth.denominator) / growth.numerator;
        held.add(position.pool);
        planned.push({ staker, position, target, alpha: alpha > 0n ? alpha : 1n, value });
      }
    }
  }
  return planned;
}
