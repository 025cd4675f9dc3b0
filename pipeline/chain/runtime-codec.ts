/**
 * Everything that depends on one runtime's metadata: storage keys, storage value types and event layouts.
 * Event and storage indexes move between runtimes (AlphaBurned is variant 91 at spec 343, 95 at spec 393),
 * so every block is decoded through the codec of the runtime that produced it, and events are matched by
 * name, never by index.
 */
import { expandMetadata, Metadata, TypeRegistry, unwrapStorageType } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { compactStripLength, hexToU8a, u8aToHex } from '@polkadot/util';
import { ChainDataError } from './chain-errors.js';
import { EventScanner } from './event-scanner.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from './subtensor-extensions.js';

export interface DecodedEvent {
  /** Position in the block's System.Events. */
  index: number;
  /** `ApplyExtrinsic(n)` phase; null for initialization and finalization events. */
  extrinsicIndex: number | null;
  /** Pallet name as in the metadata, e.g. `SubtensorModule`. */
  pallet: string;
  /** Event name, e.g. `AlphaBurned`. */
  name: string;
  fields: Codec[];
  /**
   * Readers of a field straight from its bytes (event-scanner.ts), present on `decodeEvents`' events: an
   * integer, or an account with its SS58 text; undefined when the field is of another type.
   */
  fieldCount?: number;
  uintField?(i: number): bigint | undefined;
  accountField?(i: number): { id: Uint8Array; address: string } | undefined;
}

/** Storage keys kept per runtime (`storageKey`): far more than a panel's, few enough to stay small. */
const KEPT_KEYS = 100_000;

type StorageEntry = ReturnType<typeof expandMetadata>['query'][string][string];

export class RuntimeCodec {
  readonly registry: TypeRegistry;
  readonly #query: ReturnType<typeof expandMetadata>['query'];
  readonly #eventsType: string;
  readonly #palletNames = new Map<string, string>();
  readonly #scanner: EventScanner;
  readonly #keys = new Map<string, string>();
  readonly #prefixes = new Map<string, string>();

  constructor(
    readonly specVersion: number,
    metadataHex: string,
  ) {
    this.registry = new TypeRegistry();
    const metadata = new Metadata(this.registry, hexToU8a(metadataHex));
    this.registry.setMetadata(metadata, undefined, SUBTENSOR_SIGNED_EXTENSIONS);
    this.#query = expandMetadata(this.registry, metadata).query;
    const events = this.#entry('System', 'Events');
    this.#eventsType = unwrapStorageType(this.registry, events.meta.type);
    for (const pallet of metadata.asLatest.pallets) {
      this.#palletNames.set(pallet.index.toString(), pallet.name.toString());
    }
    this.#scanner = new EventScanner(
      this.registry,
      metadata.asLatest.pallets.map((pallet) => ({
        index: pallet.index.toNumber(),
        name: pallet.name.toString(),
        eventType: pallet.events.isSome ? pallet.events.unwrap().type.toNumber() : null,
      })),
    );
  }

  /** The storage key of `pallet.item(...keys)`, hex. */
  storageKey(pallet: string, item: string, ...keys: unknown[]): string {
    // A day's panel asks for the same keys (every subnet's items) every day: each is hashed once. Only keys
    // given as plain values are kept, named with their types (the number 1 and the text "1" may differ).
    const plain = keys.every(
      (key) => typeof key === 'number' || typeof key === 'bigint' || typeof key === 'string',
    );
    const id = plain
      ? `${pallet}.${item}(${keys.map((key) => `${typeof key}:${String(key)}`).join(',')})`
      : null;
    const known = id === null ? undefined : this.#keys.get(id);
    if (known !== undefined) return known;
    // The decorated entry answers the key with a SCALE length prefix (as `StorageKey` wants it); strip it.
    const key = u8aToHex(compactStripLength(this.#entry(pallet, item)(...keys))[1]);
    if (id !== null && this.#keys.size < KEPT_KEYS) this.#keys.set(id, key);
    return key;
  }

  /** The key prefix shared by every entry of a map, for `state_getKeysPaged`. */
  storagePrefix(pallet: string, item: string): string {
    const id = `${pallet}.${item}`;
    let prefix = this.#prefixes.get(id);
    if (prefix === undefined) {
      prefix = u8aToHex(this.#entry(pallet, item).keyPrefix());
      this.#prefixes.set(id, prefix);
    }
    return prefix;
  }

  hasStorage(pallet: string, item: string): boolean {
    return this.#query[camel(pallet)]?.[camel(item)] !== undefined;
  }

  /** Decodes a raw storage value; null stays null (the entry is absent). */
  decodeStorage(pallet: string, item: string, raw: string | null): Codec | null {
    if (raw === null) return null;
    const entry = this.#entry(pallet, item);
    const type = unwrapStorageType(this.registry, entry.meta.type);
    return this.registry.createTypeUnsafe(type, [hexToU8a(raw)]);
  }

  /** The map key of a full storage key of an `Identity`-hashed map: the SCALE bytes after the prefix. */
  decodeIdentityKey(pallet: string, item: string, type: string, key: string): Codec {
    const prefixLength = hexToU8a(this.storagePrefix(pallet, item)).length;
    return this.registry.createTypeUnsafe(type, [hexToU8a(key).subarray(prefixLength)]);
  }

  /**
   * A block's events, each field decoded only when read (event-scanner.ts): a mainnet block's many events the
   * collector does not keep cost a walk over their bytes. `decodeEventsFully` is the codec-per-event way.
   */
  decodeEvents(raw: string | null): DecodedEvent[] {
    if (raw === null) return [];
    return this.#scanner.scan(hexToU8a(raw));
  }

  decodeEventsFully(raw: string | null): DecodedEvent[] {
    if (raw === null) return [];
    const records = this.registry.createTypeUnsafe(this.#eventsType, [hexToU8a(raw)]) as unknown as Array<{
      phase: { isApplyExtrinsic: boolean; asApplyExtrinsic: { toNumber(): number } };
      event: { section: string; method: string; index: Uint8Array; data: Codec[] };
    }>;
    return records.map((record, index) => {
      const event = record.event;
      const palletIndex = String(event.index[0]);
      return {
        index,
        extrinsicIndex: record.phase.isApplyExtrinsic ? record.phase.asApplyExtrinsic.toNumber() : null,
        pallet: this.#palletNames.get(palletIndex) ?? event.section,
        name: event.method,
        fields: [...event.data],
      };
    });
  }

  #entry(pallet: string, item: string): StorageEntry {
    const entry = this.#query[camel(pallet)]?.[camel(item)];
    if (!entry) throw new ChainDataError(`runtime ${this.specVersion} has no storage item ${pallet}.${item}`);
    return entry;
  }
}

/** `SubtensorModule` → `subtensorModule`, `SubnetTAO` → `subnetTAO` (as @polkadot/types decorates them). */
function camel(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
