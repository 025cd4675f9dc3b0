/**
 * The answer of `StakeInfoRuntimeApi_get_stake_info_for_coldkey` (`Vec<StakeInfo>`) read from its bytes:
 * each entry's hotkey, netuid and stake, the other fields (the coldkey, emissions, flags) stepped over, by
 * the layout the runtime's own metadata gives (`scale-bytes.ts`). The stake reads make this call at every
 * block they read; a codec object per field of each entry was most of their CPU. A layout this cannot read
 * (a field type it does not know, an answer whose length does not fit) is decoded by the codecs as before,
 * so the values are the same either way.
 */
import type { TypeRegistry } from '@polkadot/types';
import type { RuntimeApis } from '../../chain/runtime-call.js';
import { readLength, ScaleLayouts, type Skip, type UintRead } from './scale-bytes.js';

export interface StakeInfoEntry {
  /** The hotkey's SS58 text, as the runtime's registry renders an `AccountId32`. */
  hotkey: string;
  netuid: number;
  /** Alpha RAO (TAO RAO on root). */
  stake: bigint;
}

/** Reads one answer; null when its bytes do not fit the layout (the caller decodes it with the codecs). */
export type StakeInfoRead = (hex: string) => StakeInfoEntry[] | null;

const readers = new WeakMap<RuntimeApis, StakeInfoRead | null>();

/** The byte-level reader of `name`'s answer in `apis`' runtime, or null when its layout is not known. */
export function stakeInfoReader(apis: RuntimeApis, name: string): StakeInfoRead | null {
  if (readers.has(apis)) return readers.get(apis)!;
  const { registry, typeId } = apis.resultType(name);
  const reader = buildReader(registry, typeId);
  readers.set(apis, reader);
  return reader;
}

/** Hotkeys' SS58 text per registry (its SS58 prefix), by their 32 bytes: the same few recur in every block. */
const addresses = new WeakMap<TypeRegistry, Map<string, string>>();
const ADDRESS_LIMIT = 100_000;

function buildReader(registry: TypeRegistry, typeId: number): StakeInfoRead | null {
  const layouts = new ScaleLayouts(registry);
  const list = registry.lookup.getSiType(typeId).def;
  if (!list.isSequence) return null;
  const entry = registry.lookup.getSiType(list.asSequence.type.toNumber()).def;
  if (!entry.isComposite) return null;
  type Step =
    | { kind: 'skip'; skip: Skip }
    | { kind: 'hotkey'; typeName: string }
    | { kind: 'netuid' | 'stake'; read: UintRead };
  const steps: Step[] = [];
  const named = new Set<string>();
  for (const field of entry.asComposite.fields) {
    const name = field.name.isSome ? field.name.unwrap().toString() : '';
    const id = field.type.toNumber();
    if (name === 'hotkey') {
      if (!layouts.isAccount32(id)) return null;
      steps.push({ kind: 'hotkey', typeName: registry.createLookupType(id) });
    } else if (name === 'netuid' || name === 'stake') {
      const read = layouts.uint(id);
      if (!read) return null;
      steps.push({ kind: name, read });
    } else {
      const skip = layouts.skip(id);
      if (!skip) return null;
      steps.push({ kind: 'skip', skip });
    }
    named.add(name);
  }
  if (!named.has('hotkey') || !named.has('netuid') || !named.has('stake')) return null;
  let known = addresses.get(registry);
  if (!known) {
    known = new Map();
    addresses.set(registry, known);
  }
  const cache = known;
  const address = (bytes: Uint8Array, offset: number, typeName: string): string => {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset + offset, 32).toString('latin1');
    let text = cache.get(key);
    if (text === undefined) {
      text = registry.createTypeUnsafe(typeName, [bytes.slice(offset, offset + 32)]).toString();
      if (cache.size >= ADDRESS_LIMIT) cache.clear();
      cache.set(key, text);
    }
    return text;
  };
  return (hex) => {
    const bytes = Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex');
    try {
      let [count, offset] = readLength(bytes, 0);
      const entries: StakeInfoEntry[] = [];
      for (let i = 0; i < count && offset < bytes.length; i++) {
        let hotkey = '';
        let netuid = 0n;
        let stake = 0n;
        for (const step of steps) {
          if (step.kind === 'skip') offset = step.skip(bytes, offset);
          else if (step.kind === 'hotkey') {
            if (offset + 32 > bytes.length) return null;
            hotkey = address(bytes, offset, step.typeName);
            offset += 32;
          } else {
            const [value, next] = step.read(bytes, offset);
            if (step.kind === 'netuid') netuid = value;
            else stake = value;
            offset = next;
          }
        }
        if (netuid > BigInt(Number.MAX_SAFE_INTEGER)) return null;
        entries.push({ hotkey, netuid: Number(netuid), stake });
      }
      // Every byte read, no further: otherwise the codecs decide.
      return entries.length === count && offset === bytes.length ? entries : null;
    } catch {
      return null;
    }
  };
}
