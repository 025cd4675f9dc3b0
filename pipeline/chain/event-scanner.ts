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

/**
 * How a field's value is read straight from its bytes, without a codec: an unsigned integer (u8 to u128,
 * `Compact<..>` of one, or a one-field newtype of either, as `NetUid(u16)` and `TaoCurrency(u64)` are), or a
 * 32-byte `AccountId32`. Any other type is read through `fields`.
 */
type PlainKind = { kind: 'uint'; width: number } | { kind: 'compact' } | { kind: 'account' };

interface EventLayout {
  pallet: string;
  name: string;
  /** Lookup type names of the fields, for decoding one when it is read. */
  fieldTypes: string[];
  fieldSkips: Skip[];
  fieldPlain: Array<PlainKind | null>;
}

export interface ScannedEvent {
  index: number;
  extrinsicIndex: number | null;
  pallet: string;
  name: string;
  fields: Codec[];
  fieldCount: number;
  /** Field `i` as an integer read from its bytes; undefined when it is no unsigned integer (then: `fields`). */
  uintField(i: number): bigint | undefined;
  /** Field `i` as an account (its 32 bytes and SS58 text); undefined when it is no `AccountId32`. */
  accountField(i: number): AccountField | undefined;
}

export interface AccountField {
  id: Uint8Array;
  /** As `AccountId32.toString()` renders it through this runtime's registry. */
  address: string;
}

/** Little-endian unsigned integer of `width` bytes at `offset`. */
function readUint(bytes: Uint8Array, offset: number, width: number): bigint {
  if (width <= 4) {
    let value = 0;
    for (let i = width - 1; i >= 0; i--) value = value * 256 + bytes[offset + i]!;
    return BigInt(value);
  }
  let value = 0n;
  for (let i = width - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

/** A SCALE compact integer at `offset`, any size. */
function readCompact(bytes: Uint8Array, offset: number): bigint {
  const first = bytes[offset]!;
  if ((first & 3) !== 3) return BigInt(compactLength(bytes, offset)[0]);
  return readUint(bytes, offset + 1, (first >>> 2) + 4);
}

/** Addresses rendered once per account: mainnet's blocks name the same few thousand accounts over and over. */
const ADDRESS_CACHE_LIMIT = 200_000;

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

/** One event of a scanned block: a class, so that a block's hundreds of events share their methods. */
class Scanned implements ScannedEvent {
  readonly #layout: EventLayout;
  readonly #bytes: Uint8Array;
  readonly #spans: number[];
  readonly #scanner: EventScanner;
  #fields: Codec[] | undefined;

  constructor(
    readonly index: number,
    readonly extrinsicIndex: number | null,
    layout: EventLayout,
    bytes: Uint8Array,
    spans: number[],
    scanner: EventScanner,
  ) {
    this.#layout = layout;
    this.#bytes = bytes;
    this.#spans = spans;
    this.#scanner = scanner;
  }

  get pallet(): string {
    return this.#layout.pallet;
  }

  get name(): string {
    return this.#layout.name;
  }

  get fieldCount(): number {
    return this.#layout.fieldTypes.length;
  }

  get fields(): Codec[] {
    this.#fields ??= this.#layout.fieldTypes.map((_, i) =>
      this.#scanner.decodeField(this.#layout, this.#bytes, this.#spans[i]!, this.#spans[i + 1]!, i),
    );
    return this.#fields;
  }

  uintField(i: number): bigint | undefined {
    const plain = this.#layout.fieldPlain[i];
    if (!plain) return undefined;
    if (plain.kind === 'uint') return readUint(this.#bytes, this.#spans[i]!, plain.width);
    if (plain.kind === 'compact') return readCompact(this.#bytes, this.#spans[i]!);
    return undefined;
  }

  accountField(i: number): AccountField | undefined {
    if (this.#layout.fieldPlain[i]?.kind !== 'account') return undefined;
    const id = this.#bytes.subarray(this.#spans[i]!, this.#spans[i]! + 32);
    return { id, address: this.#scanner.address(id) };
  }
}

/** Byte-level readers of one runtime's events, built once per codec. */
export class EventScanner {
  readonly #registry: TypeRegistry;
  readonly #skips = new Map<number, Skip>();
  /** By pallet index, then variant index. */
  readonly #layouts = new Map<number, Map<number, EventLayout>>();
  readonly #addresses = new Map<string, string>();

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
          fieldPlain: variant.fields.map((f) => this.#plain(f.type.toNumber())),
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
      events.push(new Scanned(index, extrinsicIndex, layout, bytes, spans, this));
    }
    if (offset !== bytes.length)
      throw new ChainDataError(`System.Events: ${bytes.length - offset} bytes left over`);
    return events;
  }

  /** The SS58 text of an account, as `AccountId32.toString()` renders it through this runtime's registry. */
  address(id: Uint8Array): string {
    const key = Buffer.from(id.buffer, id.byteOffset, 32).toString('latin1');
    let address = this.#addresses.get(key);
    if (address === undefined) {
      address = this.#registry.createTypeUnsafe('AccountId32', [id.slice()]).toString();
      if (this.#addresses.size >= ADDRESS_CACHE_LIMIT) this.#addresses.clear();
      this.#addresses.set(key, address);
    }
    return address;
  }

  /** Field `i` of an event decoded through its codec, as `@polkadot/types` does. */
  decodeField(layout: EventLayout, bytes: Uint8Array, start: number, end: number, i: number): Codec {
    return this.#registry.createTypeUnsafe(layout.fieldTypes[i]!, [bytes.subarray(start, end)]);
  }

  /** How a field of type `id` is read from its bytes, or null when only its codec reads it. */
  #plain(id: number): PlainKind | null {
    const type = this.#registry.lookup.getSiType(id);
    const def = type.def;
    if (def.isPrimitive) {
      const kind = def.asPrimitive.type;
      const width = PRIMITIVE_SIZES[kind];
      return kind.startsWith('U') && width !== undefined && width <= 16 ? { kind: 'uint', width } : null;
    }
    if (def.isCompact) {
      const inner = this.#registry.lookup.getSiType(def.asCompact.type.toNumber()).def;
      return inner.isPrimitive && inner.asPrimitive.type.startsWith('U') ? { kind: 'compact' } : null;
    }
    if (def.isComposite) {
      const path = type.path.map((p) => p.toString());
      if (path[path.length - 1] === 'AccountId32' && this.#fixedSize(id) === 32) return { kind: 'account' };
      // A newtype over an integer (`NetUid(u16)`, `TaoCurrency(u64)`): its one field is the value.
      if (def.asComposite.fields.length === 1) {
        const inner = this.#plain(def.asComposite.fields[0]!.type.toNumber());
        return inner && inner.kind !== 'account' ? inner : null;
      }
    }
    return null;
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
