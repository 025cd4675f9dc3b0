import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { WorldParams } from '../options.js';
import type { Pools } from './pools.js';
import { rng } from './random.js';
import { isAlive, type SubnetRegistration } from './subnets.js';
import type { Timeline } from './timeline.js';

export type EmissionStatus = 'flowing' | 'suspended';

/** Per-block emission storage of one subnet (RAO per block). */
export interface BlockEmission {
  enabled: boolean;
  taoIn: bigint;
  alphaIn: bigint;
  alphaOut: bigint;
}

export interface EmissionChange {
  block: number;
  subnet: SubnetRegistration;
  status: EmissionStatus;
}

/**
 * Emission status comes from each registration's schedule (emission off until `emissionFrom`, off inside
 * suspension windows) plus one-block flaps injected at run time by tests. Amounts are drawn per day.
 */
export class Emissions {
  readonly #params: WorldParams;
  readonly #timeline: Timeline;
  readonly #pools: Pools;
  /** netuid → blocks at which emission is suspended for exactly one block. */
  readonly #flaps = new Map<number, Set<number>>();

  constructor(params: WorldParams, timeline: Timeline, pools: Pools) {
    this.#params = params;
    this.#timeline = timeline;
    this.#pools = pools;
  }

  injectFlap(netuid: number, block: number): void {
    let blocks = this.#flaps.get(netuid);
    if (!blocks) {
      blocks = new Set();
      this.#flaps.set(netuid, blocks);
    }
    blocks.add(block);
  }

  /** Status from the schedule alone, without injected flaps. */
  #scheduled(subnet: SubnetRegistration, block: number): EmissionStatus {
    if (subnet.netuid === 0 || !isAlive(subnet, block) || block < subnet.emissionFrom) return 'suspended';
    for (const window of subnet.suspensions) {
      if (block >= window.from && (window.to === null || block < window.to)) return 'suspended';
    }
    return 'flowing';
  }

  status(subnet: SubnetRegistration, block: number): EmissionStatus {
    if (this.#flaps.get(subnet.netuid)?.has(block)) return 'suspended';
    return this.#scheduled(subnet, block);
  }

  at(subnet: SubnetRegistration, block: number): BlockEmission {
    if (this.status(subnet, block) === 'suspended')
      return { enabled: false, taoIn: 0n, alphaIn: 0n, alphaOut: 0n };
    const day = this.#timeline.dayOf(block);
    const random = rng(this.#params.seed, `emission/${subnet.netuid}/${subnet.registeredAt}/${day}`);
    // Mainnet: 0.0005-0.007 TAO a block per subnet, about 0.5 TAO a block over 128 subnets (the emission
    // since the first halving); the adversarial world draws up to ten times more.
    const taoIn =
      this.#params.magnitudes === 'mainnet'
        ? random.bigint(500_000n, 7_000_000n)
        : random.bigint(2_000_000n, 80_000_000n);
    const pool = this.#pools.at(subnet, block);
    const alphaIn = pool && pool.tao > 0n ? (taoIn * pool.alphaIn) / pool.tao : 0n;
    const alphaOut = (RAO_PER_UNIT * random.bigint(50n, 100n)) / 100n;
    return { enabled: true, taoIn, alphaIn, alphaOut };
  }

  /**
   * Status changes of a registration within [from, to]: the block where emission starts flowing, each
   * suspension and restoration, and injected flaps. Registration itself is not a change (new subnets
   * start suspended; `subnets` in the truth says when they appear).
   */
  changes(subnet: SubnetRegistration, from: number, to: number): EmissionChange[] {
    if (subnet.netuid === 0) return [];
    const candidates = new Set<number>([subnet.emissionFrom]);
    for (const window of subnet.suspensions) {
      candidates.add(window.from);
      if (window.to !== null) candidates.add(window.to);
    }
    for (const block of this.#flaps.get(subnet.netuid) ?? []) {
      candidates.add(block);
      candidates.add(block + 1);
    }
    const changes: EmissionChange[] = [];
    for (const block of [...candidates].sort((a, b) => a - b)) {
      if (block < from || block > to || block <= subnet.registeredAt || !isAlive(subnet, block)) continue;
      const status = this.status(subnet, block);
      if (status !== this.status(subnet, block - 1)) changes.push({ block, subnet, status });
    }
    return changes;
  }
}
