/**
 * SCALE values read straight from their bytes, laid out by a runtime's own type registry: how far a value
 * of a type reaches (to step over the fields nobody reads) and unsigned integers. The stake reads decode a
 * list of every position of a coldkey at every block read (200 positions × 1,100 blocks for a staker in 100
 * subnets): building a `@polkadot/types` object per field of each cost seconds, and most of them are never
 * read. A type this does not know is left to the codecs (the readers answer null).
 */
import type { TypeRegistry } from '@polkadot/types';

/** Moves past one value at `offset` of `bytes`; returns the offset after it. */
export type Skip = (bytes: Uint8Array, offset: number) => number;

/** Reads an unsigned integer at `offset`: its value and the offset after it. */
export type UintRead = (bytes: Uint8Array, offset: number) => [value: bigint, next: number];

const PRIMITIVE_SIZES: Record<string, number> = {
  Bool: 1,
  Char: 4,
  U8: 1,
  I8: 1,
  U16: 2,
  I16: 2,
  U32: 4,
  I32: 4,
  U64: 8,
  I64: 8,
  U128: 16,
  I128: 16,
  U256: 32,
  I256: 32,
};

/** Little-endian unsigned integer of `width` bytes at `offset`. */
export function readUint(bytes: Uint8Array, offset: number, width: number): bigint {
  if (width <= 6) {
    let value = 0;
    for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[offset + i]!;
    return BigInt(value);
  }
  // Two halves of up to 48 bits each stay exact as numbers.
  let high = 0n;
  for (let i = width - 1; i >= 6; i--) high = (high << 8n) | BigInt(bytes[offset + i]!);
  let low = 0;
  for (let i = 5; i >= 0; i--) low = low * 256 + bytes[offset + i]!;
  return (high << 48n) | BigInt(low);
}

/** A SCALE compact integer at `offset`: its value and the offset after it. */
export function readCompact(bytes: Uint8Array, offset: number): [value: bigint, next: number] {
  const first = bytes[offset]!;
  switch (first & 3) {
    case 0:
      return [BigInt(first >>> 2), offset + 1];
    case 1:
      return [BigInt((first | (bytes[offset + 1]! << 8)) >>> 2), offset + 2];
    case 2:
      return [
        BigInt(
          ((first | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>>
            2) >>>
            0,
        ),
        offset + 4,
      ];
    default: {
      const size = (first >>> 2) + 4;
      return [readUint(bytes, offset + 1, size), offset + 1 + size];
    }
  }
}

/** The length prefix of a sequence at `offset` as a number, and the offset after it. */
export function readLength(bytes: Uint8Array, offset: number): [length: number, next: number] {
  const [value, next] = readCompact(bytes, offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return [Number.MAX_SAFE_INTEGER, next];
  return [Number(value), next];
}

/** Byte-level layouts of one registry's types, each built once. */
export class ScaleLayouts {
  readonly #skips = new Map<number, Skip | null>();

  constructor(readonly registry: TypeRegistry) {}

  /** How a value of type `id` is stepped over, or null for a type this does not know. */
  skip(id: number): Skip | null {
    if (this.#skips.has(id)) return this.#skips.get(id)!;
    // A recursive type refers to itself: its skip resolves through the map once built.
    let built: Skip | null = null;
    this.#skips.set(id, (bytes, offset) => built!(bytes, offset));
    built = this.#build(id);
    this.#skips.set(id, built);
    return built;
  }

  /**
   * How an unsigned integer of type `id` is read: u8 to u128, `Compact<..>` of one, or a one-field newtype of
   * either (`NetUid(u16)`, `TaoCurrency(u64)`); null for any other type.
   */
  uint(id: number): UintRead | null {
    const type = this.registry.lookup.getSiType(id);
    const def = type.def;
    if (def.isPrimitive) {
      const kind = def.asPrimitive.type.toString();
      const width = PRIMITIVE_SIZES[kind];
      if (!kind.startsWith('U') || width === undefined || width > 16) return null;
      return (bytes, offset) => [readUint(bytes, offset, width), offset + width];
    }
    if (def.isCompact) return this.uint(def.asCompact.type.toNumber()) ? readCompact : null;
    if (def.isComposite && def.asComposite.fields.length === 1)
      return this.uint(def.asComposite.fields[0]!.type.toNumber());
    return null;
  }

  /** Whether type `id` is a 32-byte account id (`AccountId32`, laid out as `[u8; 32]`). */
  isAccount32(id: number): boolean {
    const type = this.registry.lookup.getSiType(id);
    const path = type.path.map((part) => part.toString());
    return type.def.isComposite && path[path.length - 1] === 'AccountId32' && this.#fixedSize(id) === 32;
  }

  #build(id: number): Skip | null {
    const def = this.registry.lookup.getSiType(id).def;
    if (def.isPrimitive) {
      const width = PRIMITIVE_SIZES[def.asPrimitive.type.toString()];
      return width === undefined ? null : (_bytes, offset) => offset + width;
    }
    if (def.isCompact) return (bytes, offset) => readCompact(bytes, offset)[1];
    const fixed = this.#fixedSize(id);
    if (fixed !== null) return (_bytes, offset) => offset + fixed;
    if (def.isComposite)
      return this.#sequence(def.asComposite.fields.map((f) => this.skip(f.type.toNumber())));
    if (def.isTuple) return this.#sequence(def.asTuple.map((t) => this.skip(t.toNumber())));
    if (def.isArray) {
      const length = def.asArray.len.toNumber();
      const item = this.skip(def.asArray.type.toNumber());
      if (!item) return null;
      return (bytes, offset) => {
        let at = offset;
        for (let i = 0; i < length; i++) at = item(bytes, at);
        return at;
      };
    }
    if (def.isSequence) {
      const itemFixed = this.#fixedSize(def.asSequence.type.toNumber());
      const item = this.skip(def.asSequence.type.toNumber());
      if (!item) return null;
      return (bytes, offset) => {
        const [length, start] = readLength(bytes, offset);
        if (itemFixed !== null) return start + length * itemFixed;
        let at = start;
        for (let i = 0; i < length; i++) at = item(bytes, at);
        return at;
      };
    }
    if (def.isVariant) {
      const variants = new Map<number, Skip>();
      for (const variant of def.asVariant.variants) {
        const fields = this.#sequence(variant.fields.map((f) => this.skip(f.type.toNumber())));
        if (!fields) return null;
        variants.set(variant.index.toNumber(), fields);
      }
      return (bytes, offset) => {
        const fields = variants.get(bytes[offset]!);
        // An unknown variant: the value cannot be stepped over; the caller's length check falls back.
        return fields ? fields(bytes, offset + 1) : Number.NaN;
      };
    }
    return null;
  }

  #sequence(skips: Array<Skip | null>): Skip | null {
    if (skips.some((skip) => skip === null)) return null;
    const all = skips as Skip[];
    if (all.length === 0) return (_bytes, offset) => offset;
    if (all.length === 1) return all[0]!;
    return (bytes, offset) => {
      let at = offset;
      for (const skip of all) at = skip(bytes, at);
      return at;
    };
  }

  /** The encoded size of a type whose values all have one size (u8, [u8; 32], AccountId32), else null. */
  #fixedSize(id: number, depth = 0): number | null {
    // A type nested this deep is taken as recursive: it has no fixed size.
    if (depth > 32) return null;
    const def = this.registry.lookup.getSiType(id).def;
    if (def.isPrimitive) return PRIMITIVE_SIZES[def.asPrimitive.type.toString()] ?? null;
    if (def.isArray) {
      const item = this.#fixedSize(def.asArray.type.toNumber(), depth + 1);
      return item === null ? null : item * def.asArray.len.toNumber();
    }
    if (def.isComposite || def.isTuple) {
      const parts = def.isComposite
        ? def.asComposite.fields.map((f) => f.type.toNumber())
        : def.asTuple.map((t) => t.toNumber());
      let total = 0;
      for (const part of parts) {
        const size = this.#fixedSize(part, depth + 1);
        if (size === null) return null;
        total += size;
      }
      return total;
    }
    return null;
  }
}
