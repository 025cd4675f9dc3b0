import type { WorldParams } from '../options.js';
import { type RuntimeEraSpec, runtimeEra } from '../runtime/runtime-eras.js';
import { assembleBlock, type BlockEvents } from './block-events.js';
import { BurnSchedule } from './burns.js';
import { Emissions } from './emissions.js';
import { demoNetworkRegistration } from './network-lock.js';
import { Pools } from './pools.js';
import { Stakers } from './stakers.js';
import { buildSubnets, isAlive, type SubnetRegistration } from './subnets.js';
import { Timeline } from './timeline.js';

/**
 * The simulated world: everything the chain holds at any block, computed from the seed and the block
 * number. The server encodes from it and the truth reads from it; neither reads the other.
 */
export class World {
  readonly params: WorldParams;
  readonly timeline: Timeline;
  readonly subnets: SubnetRegistration[];
  readonly pools: Pools;
  readonly emissions: Emissions;
  readonly burns: BurnSchedule;
  readonly stakers: Stakers;
  readonly #byNetuid = new Map<number, SubnetRegistration[]>();
  readonly #blockCache = new Map<number, BlockEvents>();

  constructor(params: WorldParams) {
    this.params = params;
    this.timeline = new Timeline(params.genesisMs, params.blockTimeMs);
    this.subnets = buildSubnets(params);
    // The demo coldkey's own subnet of 2025/26 (network-lock.ts), on a netuid free until the last day.
    const own = demoNetworkRegistration(params);
    if (own) {
      this.subnets.push(own);
      this.subnets.sort((a, b) => a.netuid - b.netuid || a.registeredAt - b.registeredAt);
    }
    for (const subnet of this.subnets) {
      const list = this.#byNetuid.get(subnet.netuid) ?? [];
      list.push(subnet);
      this.#byNetuid.set(subnet.netuid, list);
    }
    this.pools = new Pools(params, this.timeline);
    this.emissions = new Emissions(params, this.timeline, this.pools);
    const eraAt = (block: number) => this.runtimeAt(block);
    this.burns = new BurnSchedule(params, this.timeline, this.subnets, this.pools, eraAt);
    this.stakers = new Stakers(params, this.timeline, this.subnets, this.pools, eraAt);
  }

  /** The best block at wall-clock `ms`. */
  headAt(ms: number): number {
    return Math.max(0, this.timeline.blockAt(ms));
  }

  /** Spec 393 runs blocks from the upgrade block on; spec 343 before. */
  runsNewRuntime(block: number): boolean {
    return block >= this.params.upgradeBlock;
  }

  /** Spec 425 runs blocks from its upgrade block on, when the world has one. */
  runsSpec425(block: number): boolean {
    const from = this.params.spec425Block;
    return from !== null && block >= from;
  }

  /** Spec 473 runs blocks from its upgrade block on, when the world has one (always after spec 425's). */
  runsSpec473(block: number): boolean {
    const from = this.params.spec473Block;
    return from !== null && block >= from;
  }

  /** The spec that ran `block` (its events, and the state after it): the schedule's step at or before it. */
  specAt(block: number): number {
    const schedule = this.params.runtimeSchedule;
    let spec = schedule[0]!.spec;
    for (const step of schedule) {
      if (step.fromBlock > block) break;
      spec = step.spec;
    }
    return spec;
  }

  /** The runtime that ran `block`, with what it can do. */
  runtimeAt(block: number): RuntimeEraSpec {
    return runtimeEra(this.specAt(block));
  }

  /** Whether `block` holds a runtime upgrade's `set_code` (the block before a schedule step's first block). */
  updatesCode(block: number): boolean {
    return this.params.runtimeSchedule.some((step) => step.fromBlock > 0 && step.fromBlock - 1 === block);
  }

  registrationAt(netuid: number, block: number): SubnetRegistration | undefined {
    return this.#byNetuid.get(netuid)?.find((s) => isAlive(s, block));
  }

  aliveAt(block: number): SubnetRegistration[] {
    return this.subnets.filter((s) => isAlive(s, block));
  }

  /** Largest netuid ever registered (the length of `get_all_dynamic_info`'s list is this + 1). */
  get maxNetuid(): number {
    return Math.max(...this.#byNetuid.keys());
  }

  blockEvents(block: number): BlockEvents {
    let cached = this.#blockCache.get(block);
    if (!cached) {
      cached = assembleBlock({
        seed: this.params.seed,
        block,
        features: this.runtimeAt(block).features,
        codeUpdated: this.updatesCode(block),
        spec425Block: this.params.spec425Block,
        spec473Block: this.params.spec473Block,
        burns: this.burns.atBlock(block),
        staking: this.stakers.actionsAt(block),
        // A registration a tracked coldkey made is its own call's (network-lock.ts), not a registrant's of its own.
        registered:
          block === 0 ? [] : this.subnets.filter((s) => s.registeredAt === block && !s.registeredByTracked),
        deregistered: this.subnets.filter((s) => s.deregisteredAt === block),
        // A subnet never started has no validators setting weights (mainnet's traffic skips it).
        liveNetuids: this.aliveAt(block)
          .filter((s) => !s.fixedPool)
          .map((s) => s.netuid)
          .filter((n) => n !== 0),
        eventsPerBlock: this.params.eventsPerBlock,
        feesToAuthor: this.specAt(block) >= 393,
      });
      if (this.#blockCache.size > 4_096)
        this.#blockCache.delete(this.#blockCache.keys().next().value as number);
      this.#blockCache.set(block, cached);
    }
    return cached;
  }

  injectEmissionFlap(netuid: number, block: number): void {
    this.emissions.injectFlap(netuid, block);
  }
}
