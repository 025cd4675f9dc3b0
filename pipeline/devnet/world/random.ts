/**
 * Deterministic pseudo-randomness. Every random choice of the world comes from a generator keyed by the
 * seed and a label naming the choice (e.g. `burns/day/12`), so any part of the world can be computed
 * on its own, in any order, with the same result.
 */

/** 32-bit FNV-1a with a final avalanche: cheap, stable across platforms. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: small, fast, good enough statistics for a simulation (not for cryptography). */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(key: string) {
    this.#a = hashString(`${key}#a`);
    this.#b = hashString(`${key}#b`);
    this.#c = hashString(`${key}#c`);
    this.#d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform unsigned 32-bit integer. */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('Rng.pick: empty list');
    return item;
  }

  /** Uniform bigint in [lo, hi] for ranges up to 2^64. */
  bigint(lo: bigint, hi: bigint): bigint {
    if (hi <= lo) return lo;
    const wide = (BigInt(this.next()) << 32n) | BigInt(this.next());
    return lo + (wide % (hi - lo + 1n));
  }
}

export function rng(seed: string, label: string): Rng {
  return new Rng(`${seed}/${label}`);
}
