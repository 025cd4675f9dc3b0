import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { WorldParams } from '../options.js';
import { rng } from './random.js';
import { isAlive, type SubnetRegistration } from './subnets.js';
import type { Timeline } from './timeline.js';

/** A subnet's pool reserves at one block, in RAO. */
export interface PoolReserves {
  tao: bigint;
  alphaIn: bigint;
  alphaOut: bigint;
}

const PPM = 1_000_000n;

/**
 * Pool reserves follow a daily random walk: each registration has a value at the end of each day, and
 * blocks inside a day move linearly from the previous day's end to this day's end. Day ends are computed
 * once per registration and kept, so a query is one lookup and one interpolation.
 */
export class Pools {
  readonly #params: WorldParams;
  readonly #timeline: Timeline;
  readonly #ends = new Map<SubnetRegistration, PoolReserves[]>();
  readonly #starts = new Map<SubnetRegistration, PoolReserves>();

  constructor(params: WorldParams, timeline: Timeline) {
    this.#params = params;
    this.#timeline = timeline;
  }

  /** Reserves at `block`, or null when the subnet has no pool then (unknown price). */
  at(subnet: SubnetRegistration, block: number): PoolReserves | null {
    if (!isAlive(subnet, block) || block < subnet.poolFrom) return null;
    if (subnet.fixedPool) return { ...subnet.fixedPool };
    const day = this.#timeline.dayOf(block);
    const startDay = this.#timeline.dayOf(subnet.poolFrom);
    const end = this.#dayEnd(subnet, day - startDay);
    const previous = day === startDay ? this.#start(subnet) : this.#dayEnd(subnet, day - startDay - 1);
    const spanStart = Math.max(this.#timeline.firstBlockOfDay(day), subnet.poolFrom);
    const span = BigInt(this.#timeline.lastBlockOfDay(day) - spanStart + 1);
    const done = BigInt(block - spanStart + 1);
    const lerp = (a: bigint, b: bigint) => a + ((b - a) * done) / span;
    return {
      tao: lerp(previous.tao, end.tao),
      alphaIn: lerp(previous.alphaIn, end.alphaIn),
      alphaOut: lerp(previous.alphaOut, end.alphaOut),
    };
  }

  #start(subnet: SubnetRegistration): PoolReserves {
    let start = this.#starts.get(subnet);
    if (!start) {
      const random = rng(this.#params.seed, `pool/${subnet.netuid}/${subnet.registeredAt}/start`);
      if (subnet.netuid === 0) {
        // Root: equal reserves, so SubnetTAO / SubnetAlphaIn is exactly 1 (root alpha is TAO).
        const tao = random.bigint(2_000_000n, 4_000_000n) * RAO_PER_UNIT;
        start = { tao, alphaIn: tao, alphaOut: tao };
      } else if (this.#params.magnitudes === 'mainnet') {
        // Mainnet: most pools hold a few thousand TAO, one in four tens of thousands (docs/sandbox.md);
        // alpha from 0.002 to 0.1 TAO, more of them cheap than dear (a log-like spread in two bands).
        const tao =
          (random.chance(0.25) ? random.bigint(10_000n, 60_000n) : random.bigint(1_500n, 10_000n)) *
          RAO_PER_UNIT;
        const milliTao = random.chance(0.6) ? random.bigint(2n, 20n) : random.bigint(20n, 100n);
        const alphaIn = (tao * 1_000n) / milliTao;
        start = { tao, alphaIn, alphaOut: (alphaIn * random.bigint(50n, 300n)) / 100n };
      } else {
        const tao = random.bigint(2_000n, 200_000n) * RAO_PER_UNIT;
        // Price between 0.002 and 0.2 TAO per alpha.
        const alphaIn = (tao * 1_000n) / random.bigint(2n, 200n);
        start = { tao, alphaIn, alphaOut: (alphaIn * random.bigint(50n, 300n)) / 100n };
      }
      this.#starts.set(subnet, start);
    }
    return start;
  }

  #dayEnd(subnet: SubnetRegistration, index: number): PoolReserves {
    let ends = this.#ends.get(subnet);
    if (!ends) {
      ends = [];
      this.#ends.set(subnet, ends);
    }
    const startDay = this.#timeline.dayOf(subnet.poolFrom);
    while (ends.length <= index) {
      const previous = ends[ends.length - 1] ?? this.#start(subnet);
      const day = startDay + ends.length;
      const random = rng(this.#params.seed, `pool/${subnet.netuid}/${subnet.registeredAt}/day/${day}`);
      const taoStep = BigInt(random.int(-40_000, 45_000));
      const alphaStep = subnet.netuid === 0 ? taoStep : BigInt(random.int(-40_000, 40_000));
      const floor = RAO_PER_UNIT;
      const tao = max(floor, (previous.tao * (PPM + taoStep)) / PPM);
      const alphaIn = subnet.netuid === 0 ? tao : max(floor, (previous.alphaIn * (PPM + alphaStep)) / PPM);
      const alphaOut =
        subnet.netuid === 0
          ? tao
          : previous.alphaOut + (previous.alphaOut * BigInt(random.int(0, 20_000))) / PPM;
      ends.push({ tao, alphaIn, alphaOut });
    }
    return ends[index]!;
  }
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
