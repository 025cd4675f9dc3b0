import type { TypeRegistry } from '@polkadot/types';
import type { RuntimeVersion } from '@polkadot/types/interfaces';
import type { MetadataDerivation } from './metadata-files.js';
import type { MetadataBodyJson } from './metadata-json.js';

/**
 * How the runtimes without a metadata blob of their own are derived from the nearest real blob, each change
 * read from opentensor/subtensor at the spec's merge commit (docs/sandbox.md, "Runtimes by date"):
 *
 * - spec 257 from spec 233 (commit 8de0d23ca, `pallets/subtensor/src/macros/events.rs`): `StakeAdded` and
 *   `StakeRemoved` gain a sixth field (the fee, u64); `EmissionValuesSet`, `SubnetLimitSet` and
 *   `NetworkMaxStakeSet` are gone; `SubnetOwnerHotkeySet`, `FirstEmissionBlockNumberSet`, `AlphaRecycled` and
 *   `AlphaBurned` are appended (variant indexes are positions in the enum);
 * - spec 283 from spec 315 (commit e9bbb6134): the swap pallet is there, the leases and auto-stake are not
 *   (their events, the last eight of the enum at 315, and `SubnetLeases`, `SubnetLeaseShares`,
 *   `AutoStakeDestination`);
 * - spec 285 from spec 315 (commit f8db5d06c): leases there, auto-stake not (the last six events at 315,
 *   from `SymbolUpdated` on, and `AutoStakeDestination`);
 * - spec 334 from spec 343 (commit 6218ecc5c): root claims (`RootClaimed`, `RootClaimable`) as at 343, three
 *   days later; only the version differs.
 */

interface FieldJson {
  name: string | null;
  type: number;
  typeName: string | null;
  docs: string[];
}

interface VariantJson {
  name: string;
  fields: FieldJson[];
  index: number;
  docs: string[];
}

interface LookupTypeJson {
  id: number;
  type: { path: string[]; params: unknown[]; def: Record<string, unknown>; docs: string[] };
}

function types(body: MetadataBodyJson): LookupTypeJson[] {
  return (body.lookup as { types: LookupTypeJson[] }).types;
}

function subtensorEvents(body: MetadataBodyJson): VariantJson[] {
  const pallet = body.pallets.find((p) => p.name === 'SubtensorModule') as
    | { events: { type: number } | null }
    | undefined;
  if (!pallet?.events) throw new Error('metadata: SubtensorModule events not found');
  const variants = (types(body)[pallet.events.type]?.type.def as { variant?: { variants: VariantJson[] } })
    .variant?.variants;
  if (!variants) throw new Error('metadata: SubtensorModule event enum not found');
  return variants;
}

function primitive(body: MetadataBodyJson, name: string): number {
  const found = types(body).find((t) => (t.type.def as { primitive?: string }).primitive === name);
  if (!found) throw new Error(`metadata: primitive ${name} not found`);
  return found.id;
}

function variant(variants: VariantJson[], name: string): VariantJson {
  const found = variants.find((v) => v.name === name);
  if (!found) throw new Error(`metadata: SubtensorModule.${name} not found`);
  return found;
}

const unnamed = (type: number, typeName: string): FieldJson => ({ name: null, type, typeName, docs: [] });

/** Spec 257: the fee as the sixth field of the stake events; the burn and recycle events. */
export const alphaBurnEvents: MetadataDerivation = (body) => {
  const variants = subtensorEvents(body);
  const u64 = primitive(body, 'U64');
  const u16 = primitive(body, 'U16');
  const account = variant(variants, 'StakeAdded').fields[0]!.type;
  for (const name of ['StakeAdded', 'StakeRemoved']) {
    const stake = variant(variants, name);
    if (stake.fields.length !== 5)
      throw new Error(`metadata: ${name} has ${stake.fields.length} fields, not 5`);
    stake.fields.push(unnamed(u64, 'u64'));
  }
  const kept = variants.filter(
    (v) => !['EmissionValuesSet', 'SubnetLimitSet', 'NetworkMaxStakeSet'].includes(v.name),
  );
  kept.push(
    {
      name: 'SubnetOwnerHotkeySet',
      fields: [unnamed(u16, 'u16'), unnamed(account, 'T::AccountId')],
      index: 0,
      docs: [],
    },
    {
      name: 'FirstEmissionBlockNumberSet',
      fields: [unnamed(u16, 'u16'), unnamed(u64, 'u64')],
      index: 0,
      docs: [],
    },
    ...['AlphaRecycled', 'AlphaBurned'].map((name) => ({
      name,
      fields: [
        unnamed(account, 'T::AccountId'),
        unnamed(account, 'T::AccountId'),
        unnamed(u64, 'u64'),
        unnamed(u16, 'u16'),
      ],
      index: 0,
      docs: [],
    })),
  );
  kept.forEach((v, i) => {
    v.index = i;
  });
  variants.splice(0, variants.length, ...kept);
};

function withoutEventsFrom(first: string): MetadataDerivation {
  return (body) => {
    const variants = subtensorEvents(body);
    const at = variants.findIndex((v) => v.name === first);
    if (at < 0) throw new Error(`metadata: SubtensorModule.${first} not found`);
    variants.splice(at);
  };
}

function withoutStorage(names: string[]): MetadataDerivation {
  return (body) => {
    const items = body.pallets.find((p) => p.name === 'SubtensorModule')?.storage?.items;
    if (!items) throw new Error('metadata: SubtensorModule storage not found');
    for (const name of names) {
      const at = items.findIndex((item) => item.name === name);
      if (at < 0) throw new Error(`metadata: SubtensorModule.${name} not found`);
      items.splice(at, 1);
    }
  };
}

/** Spec 283: before leases (285) and auto-stake (315). */
export const beforeLeases: MetadataDerivation[] = [
  withoutEventsFrom('SubnetLeaseCreated'),
  withoutStorage(['SubnetLeases', 'SubnetLeaseShares', 'AutoStakeDestination']),
];

/** Spec 285: leases, no auto-stake (315). */
export const beforeAutoStake: MetadataDerivation[] = [
  withoutEventsFrom('SymbolUpdated'),
  withoutStorage(['AutoStakeDestination']),
];

/** Sets `System.Version`'s spec_version (what `state_getRuntimeVersion` answers). */
export function setSpecVersion(registry: TypeRegistry, body: MetadataBodyJson, specVersion: number): void {
  const system = body.pallets.find((p) => p.name === 'System') as
    | { constants: Array<{ name: string; type: number; value: string }> }
    | undefined;
  const version = system?.constants.find((c) => c.name === 'Version');
  if (!version) throw new Error('metadata: System.Version constant missing');
  const decoded = registry.createType<RuntimeVersion>('RuntimeVersion', version.value).toJSON() as Record<
    string,
    unknown
  >;
  version.value = registry.createType('RuntimeVersion', { ...decoded, specVersion }).toHex();
}
