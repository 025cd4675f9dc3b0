import type { TypeRegistry } from '@polkadot/types';
import type { RuntimeVersion } from '@polkadot/types/interfaces';
import type { MetadataBodyJson, StorageEntryJson } from './metadata-json.js';

interface LookupTypeJson {
  id: number;
  type: {
    path: string[];
    params: unknown[];
    def: Record<string, unknown>;
    docs: string[];
  };
}

interface VariantJson {
  name: string;
  fields: Array<{ name: string | null; type: number; typeName: string | null; docs: string[] }>;
  index: number;
  docs: string[];
}

/** SafeFloat's SCALE default (`ValueQuery` fallback): mantissa 0 (u128), exponent 0 (i64). */
const SAFE_FLOAT_ZERO = `0x${'00'.repeat(24)}`;

function primitiveId(types: LookupTypeJson[], name: string): number {
  const found = types.find((t) => (t.type.def as { primitive?: string }).primitive === name);
  if (!found) throw new Error(`metadata: primitive ${name} not found`);
  return found.id;
}

/**
 * The sandbox's stand-in for spec 425, mainnet's runtime from 30 June 2026 until spec 473 (opentensor/subtensor
 * main, commit 14bc6f9, spec_version 425; no metadata blob of it is available). It is spec 393's metadata with what the
 * pack reads from the later runtime added in memory:
 *
 * - the type `share_pool::SafeFloat { mantissa: u128, exponent: i64 }` (`primitives/share-pool/src/lib.rs`);
 * - storage `SubtensorModule.AlphaV2: NMAP (hot Blake2_128Concat, cold Blake2_128Concat, netuid Identity)
 *   => SafeFloat` and `SubtensorModule.TotalHotkeySharesV2: DMAP (hot Blake2_128Concat, netuid Identity)
 *   => SafeFloat` (`pallets/subtensor/src/lib.rs`);
 * - the event `SubtensorModule.TransactionFeePaidWithAlpha { who, netuid, alpha_fee, tao_amount }`
 *   (`pallets/subtensor/src/macros/events.rs`); every other event the sandbox emits from this runtime
 *   (`StakeAdded`, `StakeRemoved`, `StakeMoved`, `StakeSwapped`, `StakeTransferred`, `HotkeySwapped`,
 *   `HotkeySwappedOnSubnet`, `ColdkeySwapped`, `NetworkRemoved`, `AlphaRecycled`, `AlphaBurned`,
 *   `AutoStakeAdded`, `RootClaimed`, `SubnetLeaseDividendsDistributed`, `Balances.Transfer`) already has
 *   spec 425's field shape in spec 393 and keeps its index;
 * - `System.Version` with spec_version 425.
 */
export function extendToSpec425(registry: TypeRegistry, body: MetadataBodyJson, specVersion: number): void {
  const lookup = body.lookup as { types: LookupTypeJson[] };
  const types = lookup.types;
  const u128 = primitiveId(types, 'U128');
  const i64 = primitiveId(types, 'I64');
  const u16 = primitiveId(types, 'U16');
  const u64 = primitiveId(types, 'U64');
  const safeFloat = types.length;
  types.push({
    id: safeFloat,
    type: {
      path: ['share_pool', 'SafeFloat'],
      params: [],
      def: {
        composite: {
          fields: [
            { name: 'mantissa', type: u128, typeName: 'u128', docs: [] },
            { name: 'exponent', type: i64, typeName: 'i64', docs: [] },
          ],
        },
      },
      docs: [],
    },
  });

  const subtensor = body.pallets.find((p) => p.name === 'SubtensorModule') as
    | (MetadataBodyJson['pallets'][number] & { events: { type: number } })
    | undefined;
  const items = subtensor?.storage?.items;
  const alpha = items?.find((i) => i.name === 'Alpha');
  const totalShares = items?.find((i) => i.name === 'TotalHotkeyShares');
  if (!subtensor || !items || !alpha?.type.map || !totalShares?.type.map) {
    throw new Error('metadata: SubtensorModule.Alpha / TotalHotkeyShares not found');
  }
  const v2 = (template: StorageEntryJson, name: string, doc: string): StorageEntryJson => ({
    ...template,
    name,
    modifier: 'Default',
    type: { map: { ...template.type.map!, value: safeFloat } },
    fallback: SAFE_FLOAT_ZERO,
    docs: [doc],
  });
  items.push(
    v2(
      alpha,
      'AlphaV2',
      ' --- NMAP ( hot, cold, netuid ) --> alpha | Returns the alpha shares for a hotkey, coldkey, netuid triplet, stores SafeFloat.',
    ),
    v2(
      totalShares,
      'TotalHotkeySharesV2',
      ' DMAP ( hot, netuid ) --> total_alpha_shares | Returns the number of alpha shares for a hotkey on a subnet, stores SafeFloat.',
    ),
  );

  const eventType = types[subtensor.events.type];
  const variants = (eventType?.type.def as { variant?: { variants: VariantJson[] } }).variant?.variants;
  const account = variants?.find((v) => v.name === 'StakeAdded')?.fields[0]?.type;
  if (!variants || account === undefined) throw new Error('metadata: SubtensorModule events not found');
  if (!variants.some((v) => v.name === 'TransactionFeePaidWithAlpha')) {
    variants.push({
      name: 'TransactionFeePaidWithAlpha',
      fields: [
        {
          name: 'who',
          type: account,
          typeName: 'T::AccountId',
          docs: ['Account that paid the transaction fee.'],
        },
        { name: 'netuid', type: u16, typeName: 'NetUid', docs: ['Netuid'] },
        {
          name: 'alpha_fee',
          type: u64,
          typeName: 'AlphaBalance',
          docs: ['Exact fee deducted in Alpha units.'],
        },
        { name: 'tao_amount', type: u64, typeName: 'TaoBalance', docs: ['Resulting swapped TAO amount'] },
      ],
      index: Math.max(...variants.map((v) => v.index)) + 1,
      docs: [
        'Transaction fee was paid in Alpha.',
        'Emitted in addition to `TransactionFeePaid` when the fee payment path is Alpha.',
      ],
    });
  }

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
