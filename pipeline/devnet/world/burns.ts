import type { WorldParams } from '../options.js';
import type { RuntimeEraSpec } from '../runtime/runtime-eras.js';
import { type Account, deriveAccount } from './accounts.js';
import { burnAmount, mainnetBurnAmount, mainnetDailyBudget } from './amounts.js';
import type { Pools } from './pools.js';
import { rng } from './random.js';
import type { SubnetRegistration } from './subnets.js';
import type { Timeline } from './timeline.js';

export type BurnKind = 'burn' | 'buyback' | 'recycle';

/** One burning extrinsic: `burn_alpha`, `add_stake_burn` (a buyback) or `recycle_alpha`. */
export interface BurnAction {
  block: number;
  subnet: SubnetRegistration;
  kind: BurnKind;
  coldkey: Account;
  hotkey: Account;
  alpha: bigint;
  /** TAO spent; buybacks only. */
  tao: bigint | null;
  /** Fee of the buyback's stake step (its StakeAdded). */
  fee: bigint;
}

const BURNERS = 16;

/**
 * Burns are planned a day at a time: each subnet's profile decides how many burns it makes that day,
 * and each gets a block of the day. Only those blocks carry burn events, so a day's burns are known
 * without touching its 7,200 blocks.
 */
export class BurnSchedule {
  readonly #params: WorldParams;
  readonly #timeline: Timeline;
  readonly #subnets: readonly SubnetRegistration[];
  readonly #pools: Pools;
  readonly #days = new Map<number, Map<number, BurnAction[]>>();
  readonly #burners: Account[];

  readonly #eraAt: (block: number) => RuntimeEraSpec;

  constructor(
    params: WorldParams,
    timeline: Timeline,
    subnets: readonly SubnetRegistration[],
    pools: Pools,
    eraAt: (block: number) => RuntimeEraSpec,
  ) {
    this.#eraAt = eraAt;
    this.#params = params;
    this.#timeline = timeline;
    this.#subnets = subnets;
    this.#pools = pools;
    this.#burners = Array.from({ length: BURNERS }, (_, i) => deriveAccount(params.seed, `burner/${i}`));
  }

  /** Burns of one day by block (nominal day: blocks not yet produced included). */
  day(day: number): Map<number, BurnAction[]> {
    let plan = this.#days.get(day);
    if (!plan) {
      plan = this.#plan(day);
      if (this.#days.size > 64) this.#days.delete(this.#days.keys().next().value as number);
      this.#days.set(day, plan);
    }
    return plan;
  }

  atBlock(block: number): BurnAction[] {
    return this.day(this.#timeline.dayOf(block)).get(block) ?? [];
  }

  #plan(day: number): Map<number, BurnAction[]> {
    const plan = new Map<number, BurnAction[]>();
    if (day < 0) return plan;
    const first = Math.max(1, this.#timeline.firstBlockOfDay(day));
    const last = this.#timeline.lastBlockOfDay(day);
    for (const subnet of this.#subnets) {
      if (subnet.burnProfile === 'never') continue;
      const from = Math.max(first, subnet.registeredAt + 1);
      const to = Math.min(last, (subnet.deregisteredAt ?? Number.MAX_SAFE_INTEGER) - 1);
      if (from > to) continue;
      const random = rng(this.#params.seed, `burns/${subnet.netuid}/${subnet.registeredAt}/${day}`);
      const count =
        subnet.burnProfile === 'daily'
          ? random.int(6, 22)
          : subnet.burnProfile === 'occasional'
            ? random.chance(0.3)
              ? random.int(1, 4)
              : 0
            : random.chance(0.06)
              ? 1
              : 0;
      // The mainnet world's budget is the registration's own (its random stream does not depend on the day).
      const budget =
        this.#params.magnitudes === 'mainnet'
          ? mainnetDailyBudget(
              rng(this.#params.seed, `burn-budget/${subnet.netuid}/${subnet.registeredAt}`),
              subnet.burnProfile,
            )
          : 0n;
      for (let i = 0; i < count; i++) {
        const block = random.int(from, to);
        const alpha =
          this.#params.magnitudes === 'mainnet'
            ? mainnetBurnAmount(random, budget, count)
            : burnAmount(random);
        const coldkey = random.chance(0.8) ? subnet.owner : random.pick(this.#burners);
        const pool = this.#pools.at(subnet, block);
        let action: BurnAction = {
          block,
          subnet,
          kind: 'burn',
          coldkey,
          hotkey: subnet.ownerHotkey,
          alpha,
          tao: null,
          fee: 0n,
        };
        const features = this.#eraAt(block).features;
        if (subnet.recycles && random.chance(0.15)) {
          action = { ...action, kind: 'recycle' };
        } else if (subnet.buybacks && features.buybacks && pool && random.chance(0.5)) {
          const tao = (alpha * pool.tao) / pool.alphaIn + 1n;
          action = { ...action, kind: 'buyback', coldkey: subnet.owner, tao, fee: tao / 2_000n };
        }
        // Before spec 257 neither `burn_alpha` nor `recycle_alpha` exists: the day's draws stay as they are.
        if (!features.alphaBurns) continue;
        const list = plan.get(block);
        if (list) list.push(action);
        else plan.set(block, [action]);
      }
    }
    return plan;
  }
}
