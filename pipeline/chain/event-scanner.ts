/**
 * Reads a block's `System.Events` (`Vec<EventRecord>`) without building a codec object per event: a walk over
 * the SCALE bytes that learns each event's pallet, name, phase and where each field lies, from the runtime's
 * own type registry. A field is decoded (through `@polkadot/types`, as before) only when read, so a mainnet
 * block's weight commits, fees and outcomes cost a few byte reads each and the burns and staking events the
 * collector keeps are decoded as they always were.
 */
import type { TypeRegistry } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { ChainDataError } from './chain-errors.js';

/** Moves past one value at `offset` of `bytes`; returns the offset after it. */
type Skip = (bytes: Uint8Array, offset: number) => number;

interface EventLayout {
  pallet: string;
  name: string;
  /** Lookup type names of the fields, for decoding one when it is read. */
  fieldTypes: string[];
  fieldSkips: Skip[];
}

export interface ScannedEvent {
  index: number;
  extrinsicIndex: number | null;
  pallet: string;
  name: string;
  fields: Codec[];
}

function compactLength(bytes: Uint8Array, offset: number): [value: number, size: number] {
  const first = bytes[offset]!;
  switch (first & 3) {
    case 0:
      return [first >>> 2, 1];
    case 1:
      return [(first | (bytes[offset + 1]! << 8)) >>> 2, 2];
    case 2:
      return [
        ((first | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>>
          2) >>>
          0,
        4,
      ];
    default: {
      const size = (first >>> 2) + 4;
      let value = 0;
      for (let i = size; i >= 1; i--) value = value * 256 + bytes[offset + i]!;
      return [value, size + 1];
    }
  }
}

const skipCompact: Skip = (bytes, offset) => offset + compactLength(bytes, offset)[1];

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

/** Byte-level readers of one runtime's events, built once per codec. */
export class EventScanner {
  readonly #registry: TypeRegistry;
  readonly #skips = new Map<number, Skip>();
  /** By pallet index, then variant index. */
  readonly #layouts = new Map<number, Map<number, EventLayout>>();

  constructor(
    registry: TypeRegistry,
    pallets: Array<{ index: number; name: string; eventType: number | null }>,
  ) {
    this.#registry = registry;
    for (const pallet of pallets) {
      if (pallet.eventType === null) continue;
      const variants = new Map<number, EventLayout>();
      for (const variant of registry.lookup.getSiType(pallet.eventType).def.asVariant.variants) {
        variants.set(variant.index.toNumber(), {
          pallet: pallet.name,
          name: variant.name.toString(),
          fieldTypes: variant.fields.map((f) => registry.createLookupType(f.type)),
          fieldSkips: variant.fields.map((f) => this.#skip(f.type.toNumber())),
        });
      }
      this.#layouts.set(pallet.index, variants);
    }
  }

  scan(bytes: Uint8Array): ScannedEvent[] {
    const [count, size] = compactLength(bytes, 0);
    let offset = size;
    const events: ScannedEvent[] = [];
    for (let index = 0; index < count; index++) {
      // Phase: 0 ApplyExtrinsic(u32), 1 Finalization, 2 Initialization.
      const phase = bytes[offset]!;
      let extrinsicIndex: number | null = null;
      if (phase === 0) {
        extrinsicIndex =
          (bytes[offset + 1]! |
            (bytes[offset + 2]! << 8) |
            (bytes[offset + 3]! << 16) |
            (bytes[offset + 4]! << 24)) >>>
          0;
        offset += 5;
      } else offset += 1;
      const palletIndex = bytes[offset]!;
      const variantIndex = bytes[offset + 1]!;
      offset += 2;
      const layout = this.#layouts.get(palletIndex)?.get(variantIndex);
      if (!layout)
        throw new ChainDataError(`event ${palletIndex}/${variantIndex} is not in this runtime's metadata`);
      const spans: number[] = [offset];
      for (const skip of layout.fieldSkips) {
        offset = skip(bytes, offset);
        spans.push(offset);
      }
      // Topics: Vec<H256>.
      const [topics, topicsSize] = compactLength(bytes, offset);
      offset += topicsSize + 32 * topics;
      events.push(this.#event(index, extrinsicIndex, layout, bytes, spans));
    }
    if (offset !== bytes.length)
      throw new ChainDataError(`System.Events: ${bytes.length - offset} bytes left over`);
    return events;
  }

  #event(
    index: number,
    extrinsicIndex: number | null,
    layout: EventLayout,
    bytes: Uint8Array,
    spans: number[],
  ): ScannedEvent {
    const registry = this.#registry;
    let fields: Codec[] | undefined;
    return {
      index,
      extrinsicIndex,
      pallet: layout.pallet,
      name: layout.name,
      get fields(): Codec[] {
        fields ??= layout.fieldTypes.map((type, i) =>
          registry.createTypeUnsafe(type, [bytes.subarray(spans[i]!, spans[i + 1]!)]),
        );
        return fields;
      },
    };
  }

  #skip(id: number): Skip {
    const known = this.#skips.get(id);
    if (known) return known;
    // Recursive types refer to themselves: resolve through the map once built.
    let built: Skip | undefined;
    this.#skips.set(id, (bytes, offset) => built!(bytes, offset));
    built = this.#build(id);
    this.#skips.set(id, built);
    return built;
  }

  #build(id: number): Skip {
    const def = this.#registry.lookup.getSiType(id).def;
    if (def.isPrimitive) {
      const kind = def.asPrimitive.type;
      if (kind === 'Str')
        return (b, o) => {
          const [length, size] = compactLength(b, o);
          return o + size + length;
        };
      const width = PRIMITIVE_SIZES[kind];
      if (width === undefined) throw new ChainDataError(`events: primitive ${kind} cannot be read`);
      return (_b, o) => o + width;
    }
    if (def.isCompact) return skipCompact;
    if (def.isComposite)
      return this.#sequence(def.asComposite.fields.map((f) => this.#skip(f.type.toNumber())));
    if (def.isTuple) return this.#sequence(def.asTuple.map((t) => this.#skip(t.toNumber())));
    if (def.isArray) {
      const length = def.asArray.len.toNumber();
      const fixed = this.#fixedSize(def.asArray.type.toNumber());
      if (fixed !== null) return (_b, o) => o + length * fixed;
      const item = this.#skip(def.asArray.type.toNumber());
      return (b, o) => {
        let at = o;
        for (let i = 0; i < length; i++) at = item(b, at);
        return at;
      };
    }
    if (def.isSequence) {
      const fixed = this.#fixedSize(def.asSequence.type.toNumber());
      const item = this.#skip(def.asSequence.type.toNumber());
      return (b, o) => {
        const [length, size] = compactLength(b, o);
        if (fixed !== null) return o + size + length * fixed;
        let at = o + size;
        for (let i = 0; i < length; i++) at = item(b, at);
        return at;
      };
    }
    if (def.isVariant) {
      const variants = new Map<number, Skip>();
      for (const variant of def.asVariant.variants) {
        variants.set(
          variant.index.toNumber(),
          this.#sequence(variant.fields.map((f) => this.#skip(f.type.toNumber()))),
        );
      }
      return (b, o) => {
        const skip = variants.get(b[o]!);
        if (!skip) throw new ChainDataError(`events: unknown variant ${b[o]} of type ${id}`);
        return skip(b, o + 1);
      };
    }
    if (def.isBitSequence) {
      return (b, o) => {
        const [bits, size] = compactLength(b, o);
        return o + size + Math.ceil(bits / 8);
      };
    }
    throw new ChainDataError(`events: type ${id} cannot be read`);
  }

  #sequence(skips: Skip[]): Skip {
    if (skips.length === 0) return (_b, o) => o;
    if (skips.length === 1) return skips[0]!;
    return (b, o) => {
      let at = o;
      for (const skip of skips) at = skip(b, at);
      return at;
    };
  }

  /** The encoded size of a type whose values all have one size (u8, [u8; 32], AccountId32), else null. */
  #fixedSize(id: number): number | null {
    const def = this.#registry.lookup.getSiType(id).def;
    if (def.isPrimitive) return PRIMITIVE_SIZES[def.asPrimitive.type] ?? null;
    if (def.isArray) {
      const item = this.#fixedSize(def.asArray.type.toNumber());
      return item === null ? null : item * def.asArray.len.toNumber();
    }
    if (def.isComposite) {
      let total = 0;
      for (const field of def.asComposite.fields) {
        const size = this.#fixedSize(field.type.toNumber());
        if (size === null) return null;
        total += size;
      }
      return total;
    }
    if (def.isTuple) {
      let total = 0;
      for (const t of def.asTuple) {
        const size = this.#fixedSize(t.toNumber());
        if (size === null) return null;
        total += size;
      }
      return total;
    }
    return null;
  }
}
