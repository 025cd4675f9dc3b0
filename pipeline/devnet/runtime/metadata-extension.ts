import { Metadata, TypeRegistry } from '@polkadot/types';
import { u8aConcat } from '@polkadot/util';
import { setSpecVersion } from './derived-metadata.js';
import type { MetadataDerivation } from './metadata-files.js';
import type { MetadataBodyJson } from './metadata-json.js';
import { extendToSpec425 } from './spec-425-runtime.js';
import { extendToSpec473 } from './spec-473-runtime.js';

/**
 * Storage items the sandbox needs that the real metadata files lack. They are added by decoding the
 * metadata, appending entries to the `SubtensorModule` pallet and re-encoding, so `@polkadot/api`
 * decorates them like any other item. A real node does not have them: code must treat them as optional.
 *
 * - `SubtensorModule.SubnetEmissionEnabled: map Identity(u16) => bool` (default false): whether a
 *   subnet's emission is flowing. The real chain only shows suspension as zero `SubnetTaoInEmission`.
 */
export const ADDED_STORAGE_ITEMS = ['SubnetEmissionEnabled'] as const;

const MAGIC = [0x6d, 0x65, 0x74, 0x61];

/**
 * How a metadata blob is extended beyond the sandbox's own storage item: `spec425` turns spec 393's
 * metadata into the sandbox's stand-in for spec 425 (see `spec-425-runtime.ts`); with `spec473` as well, that
 * stand-in becomes spec 473's (see `spec-473-runtime.ts`).
 */
export interface MetadataExtensionOptions {
  spec425?: { specVersion: number };
  spec473?: boolean;
  /** A runtime without a blob of its own: these changes to the nearest blob, then this spec_version. */
  derive?: { specVersion: number; changes: MetadataDerivation[] };
}

export function extendMetadata(
  bytes: Uint8Array,
  metadataVersion: number,
  options: MetadataExtensionOptions = {},
): Uint8Array {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, bytes);
  const versioned = metadataVersion === 16 ? metadata.asV16 : metadata.asV15;
  const body = versioned.toJSON() as unknown as MetadataBodyJson;
  const pallet = body.pallets.find((p) => p.name === 'SubtensorModule');
  const items = pallet?.storage?.items;
  const template = items?.find((item) => item.name === 'NetworksAdded');
  if (!items || !template?.type.map) throw new Error('metadata: SubtensorModule.NetworksAdded not found');
  // NetworksAdded is exactly `map Identity(u16) => bool`; cloning it reuses the runtime's own type ids.
  items.push({
    ...template,
    name: 'SubnetEmissionEnabled',
    fallback: '0x00',
    docs: [' Sandbox addition (not in the real runtime): MAP ( netuid ) --> emission flowing'],
  });
  if (options.spec425) extendToSpec425(registry, body, options.spec425.specVersion);
  if (options.spec425 && options.spec473) extendToSpec473(body);
  if (options.derive) {
    for (const change of options.derive.changes) change(body);
    setSpecVersion(registry, body, options.derive.specVersion);
  }
  const encoded = registry.createType(`MetadataV${metadataVersion}` as 'MetadataV15', body).toU8a();
  return u8aConcat(new Uint8Array([...MAGIC, metadataVersion]), encoded);
}
