import { Metadata, TypeDefInfo, TypeRegistry } from '@polkadot/types';
import type { RuntimeVersion } from '@polkadot/types/interfaces';
import { compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../chain/subtensor-extensions.js';
import { extendMetadata } from './metadata-extension.js';
import type { MetadataFile } from './metadata-files.js';

/** Where an event lives in one runtime: indexes move between runtimes, names do not. */
export interface EventShape {
  palletIndex: number;
  variantIndex: number;
  /** Lookup type names of the fields, in order (usable with `registry.createTypeUnsafe`). */
  fieldTypes: string[];
}

export interface RuntimeCallShape {
  inputTypes: string[];
  outputType: string;
}

/**
 * One runtime of the sandbox's history: its (extended) metadata, a registry that encodes its types,
 * and the answers the node gives about it (version, metadata blobs).
 */
export class Runtime {
  readonly specVersion: number;
  readonly metadataVersion: number;
  readonly registry: TypeRegistry;
  /** Bare metadata as `state_getMetadata` answers it. */
  readonly metadataHex: string;
  /** `Option<OpaqueMetadata>` as `Metadata_metadata_at_version` answers it. */
  readonly opaqueMetadataHex: string;
  /** SCALE `Vec<u32>` for `Metadata_metadata_versions`: only the version this blob can serve. */
  readonly metadataVersionsHex: string;
  /** `state_getRuntimeVersion` JSON. */
  readonly versionJson: Record<string, unknown>;
  /** SCALE `RuntimeVersion` for `Core_version`. */
  readonly versionHex: string;
  readonly #events = new Map<string, EventShape>();
  readonly #storage = new Map<string, string>();
  readonly #calls = new Map<string, RuntimeCallShape>();

  constructor(file: MetadataFile) {
    this.specVersion = file.specVersion;
    this.metadataVersion = file.metadataVersion;
    const bytes = extendMetadata(
      file.bytes,
      file.metadataVersion,
      file.standsFor425
        ? { spec425: { specVersion: file.specVersion }, spec473: file.standsFor473 === true }
        : file.derive
          ? { derive: { specVersion: file.specVersion, changes: file.derive.changes } }
          : {},
    );
    this.registry = new TypeRegistry();
    const metadata = new Metadata(this.registry, bytes);
    // Subtensor's own signed extensions, declared once for every registry the project builds.
    this.registry.setMetadata(metadata, undefined, SUBTENSOR_SIGNED_EXTENSIONS);
    this.metadataHex = u8aToHex(bytes);
    this.opaqueMetadataHex = u8aToHex(u8aConcat(new Uint8Array([1]), compactToU8a(bytes.length), bytes));
    this.metadataVersionsHex = u8aToHex(this.registry.createType('Vec<u32>', [file.metadataVersion]).toU8a());
    const latest = metadata.asLatest;
    const system = latest.pallets.find((p) => p.name.toString() === 'System');
    const versionConstant = system?.constants.find((c) => c.name.toString() === 'Version');
    if (!versionConstant) throw new Error('metadata: System.Version constant missing');
    const version = this.registry.createType<RuntimeVersion>('RuntimeVersion', versionConstant.value);
    if (version.specVersion.toNumber() !== file.specVersion) {
      throw new Error(`metadata: expected spec ${file.specVersion}, found ${version.specVersion.toString()}`);
    }
    this.versionJson = version.toJSON() as Record<string, unknown>;
    this.versionHex = u8aToHex(versionConstant.value);
    for (const pallet of latest.pallets) {
      const palletName = pallet.name.toString();
      if (pallet.events.isSome) {
        const variants = this.registry.lookup.getSiType(pallet.events.unwrap().type).def.asVariant.variants;
        for (const variant of variants) {
          this.#events.set(`${palletName}.${variant.name.toString()}`, {
            palletIndex: pallet.index.toNumber(),
            variantIndex: variant.index.toNumber(),
            fieldTypes: variant.fields.map((f) => this.registry.createLookupType(f.type)),
          });
        }
      }
      if (pallet.storage.isSome) {
        for (const item of pallet.storage.unwrap().items) {
          const valueId = item.type.isPlain ? item.type.asPlain : item.type.asMap.value;
          this.#storage.set(`${palletName}.${item.name.toString()}`, this.registry.createLookupType(valueId));
        }
      }
    }
    for (const api of latest.apis) {
      for (const method of api.methods) {
        this.#calls.set(`${api.name.toString()}_${method.name.toString()}`, {
          inputTypes: method.inputs.map((input) => this.registry.createLookupType(input.type)),
          outputType: this.registry.createLookupType(method.output),
        });
      }
    }
  }

  event(key: string): EventShape {
    const shape = this.#events.get(key);
    if (!shape) throw new Error(`runtime ${this.specVersion} has no event ${key}`);
    return shape;
  }

  hasEvent(key: string): boolean {
    return this.#events.has(key);
  }

  storageValueType(key: string): string {
    const type = this.#storage.get(key);
    if (!type) throw new Error(`runtime ${this.specVersion} has no storage item ${key}`);
    return type;
  }

  hasStorage(key: string): boolean {
    return this.#storage.has(key);
  }

  runtimeCall(name: string): RuntimeCallShape | undefined {
    return this.#calls.get(name);
  }

  /** SCALE-encodes a value of a lookup type (or any type name the registry knows). */
  encode(type: string, value: unknown): Uint8Array {
    return this.#fastEncoder(type)?.(value) ?? this.registry.createTypeUnsafe(type, [value]).toU8a();
  }

  /** Per type name: an encoder of its plainest values without the registry, or null (none). */
  readonly #fastEncoders = new Map<string, FastEncoder | null>();

  #fastEncoder(type: string): FastEncoder | null {
    let fast = this.#fastEncoders.get(type);
    if (fast === undefined) {
      this.#fastEncoders.set(type, null); // a type that holds itself is left to the registry
      try {
        fast =
          plainEncoder(this.registry.createTypeUnsafe(type, []).toRawType()) ?? this.#composedEncoder(type);
      } catch {
        fast = null; // a type the registry cannot make empty (a field's): its values go to the registry
      }
      this.#fastEncoders.set(type, fast);
    }
    return fast;
  }

  /**
   * A struct of fields this runtime encodes quickly, or an enum of variants without payload (every
   * extrinsic's `DispatchEventInfo`: a weight of two compacts, a class, whether it pays): given as the
   * registry's JSON form with every field named and nothing more (a struct), or a variant's exact name (an
   * enum). Anything else is left to the registry, which fills in missing fields, reads other spellings or says
   * why not.
   */
  #composedEncoder(type: string): FastEncoder | null {
    if (!isLookupName(type)) return null;
    const def = this.registry.lookup.getTypeDef(type);
    if (!Array.isArray(def.sub)) return null;
    if (def.info === TypeDefInfo.Enum) {
      if (def.sub.some((variant) => variant.info !== TypeDefInfo.Null || variant.index === undefined))
        return null;
      const indexes = new Map(def.sub.map((variant) => [variant.name, variant.index!]));
      return (value) => {
        const index = typeof value === 'string' ? indexes.get(value) : undefined;
        return index === undefined ? undefined : new Uint8Array([index]);
      };
    }
    if (def.info !== TypeDefInfo.Struct) return null;
    const fields: [string, FastEncoder][] = [];
    for (const field of def.sub) {
      const encoder = this.#fastEncoder(field.type);
      if (!encoder || field.name === undefined) return null;
      fields.push([field.name, encoder]);
    }
    return (value) => {
      if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
        return undefined;
      const record = value as Record<string, unknown>;
      if (Object.keys(record).length !== fields.length) return undefined;
      const parts: Uint8Array[] = [];
      for (const [name, encoder] of fields) {
        const bytes = Object.hasOwn(record, name) ? encoder(record[name]) : undefined;
        if (bytes === undefined) return undefined;
        parts.push(bytes);
      }
      return u8aConcat(...parts);
    };
  }
}

/** Encodes a value, or gives undefined for one it leaves to the registry. */
type FastEncoder = (value: unknown) => Uint8Array | undefined;

const UINT_BYTES: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16 };

/**
 * The sandbox encodes every event of every block it serves, most of their fields unsigned integers and
 * account ids: through the registry each one is a codec object, the largest part of a test world's collection
 * (a 60-day world's events: 2.1 s through the registry, 0.9 s with these). Those are written here as SCALE
 * writes them (little-endian integers of their width, a compact's one to seventeen bytes, an account id's 32
 * bytes, a copy); any other value, or one out of range, is left to the registry, which encodes it or says why
 * not.
 */
function plainEncoder(rawType: string): FastEncoder | null {
  const compacted = /^Compact<(u\d+)>$/.exec(rawType)?.[1];
  const compactWidth = compacted === undefined ? undefined : UINT_BYTES[compacted];
  if (compactWidth !== undefined) {
    const max = 1n << BigInt(compactWidth * 8);
    return (value) => (isUintBelow(value, max) ? compactToU8a(value) : undefined);
  }
  const width = UINT_BYTES[rawType];
  if (width !== undefined) {
    const max = 1n << BigInt(width * 8);
    return (value) => {
      if (!isUintBelow(value, max)) return undefined;
      let rest = BigInt(value);
      const bytes = new Uint8Array(width);
      for (let i = 0; i < width && rest > 0n; i++) {
        bytes[i] = Number(rest & 0xffn);
        rest >>= 8n;
      }
      return bytes;
    };
  }
  if (rawType === 'AccountId' || rawType === 'AccountId32')
    return (value) => (value instanceof Uint8Array && value.length === 32 ? value.slice() : undefined);
  return null;
}

function isUintBelow(value: unknown, max: bigint): value is bigint | number {
  if (typeof value === 'bigint') return value >= 0n && value < max;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && BigInt(value) < max;
}

function isLookupName(type: string): type is `Lookup${number}` {
  return /^Lookup\d+$/.test(type);
}
