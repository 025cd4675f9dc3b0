/**
 * What the record's coldkeys hold besides their own balance and stake, at many past blocks (an archive node
 * answers for any block). The pack books each as it books a token, so the daily reconciliation must read it
 * from the chain too:
 *   - TAO on the coldkey's own EVM address (`own-evm-address.ts`): the free balance of the account
 *     `blake2_256("evm:" ++ address)` maps it to (`System.Account`), part of the TAO pool;
 *   - a crowdloan contribution, the asset `crowdloan:<id>`: `Crowdloan.Contributions (crowdloan id,
 *     contributor) → amount` in TAO RAO (opentensor/subtensor `pallets/crowdloan/src/lib.rs`);
 *   - a user liquidity position, the asset `liquidity:<netuid>:<position id>`: `Swap.Positions (netuid,
 *     coldkey, position id) → Position`, its `liquidity` (`pallets/swap/src/pallet/mod.rs`).
 *   - a network registration, the asset `subnet-lock:<netuid>:<registered block>` (quantity one,
 *     `network-lock-actions.ts`): held while `SubtensorModule.SubnetOwner(netuid)` is the coldkey and
 *     `NetworkRegisteredAt(netuid)` is that block. The lock's amount is not read: runtimes before spec 320
 *     stored none for a dTAO registration (`SubnetLocked` 0 until `migrate_restore_subnet_locked`).
 * A runtime whose metadata lacks the item holds none of it: the crowdloan pallet arrived in May 2025, and
 * `migrate_swapv3_to_balancer` (spec 393) removed `Positions` once no user position was open. One
 * `state_queryStorageAt` per block, and only for the record that has any of these (most have none).
 */

import type { Codec } from '@polkadot/types/types';
import { u8aToHex } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import type { ChainReader } from '../../chain/chain-reader.js';
import { rao } from '../../chain/codec-values.js';
import { mapConcurrent } from '../../chain/limiter.js';
import { NETWORK_LOCK_QUANTITY } from './actions/network-lock-actions.js';
import { ownEvmOf } from './actions/own-evm-address.js';
import { ownEvmAccountOf } from './follow-own-evm-stake.js';

/** One holding of one coldkey outside its balance and stake. */
export interface OtherHoldingRef {
  coldkey: string;
  /** The pool it belongs to: `TAO` (own EVM address), `crowdloan:<id>` or `liquidity:<netuid>:<id>`. */
  asset: string;
  /** How the reconciliation names it: `evm`, `crowdloan <id>` or `liquidity <netuid>/<id>`. */
  holding: string;
}

/** The amount of each holding (RAO; a position's liquidity) at one block, by `otherHoldingKey`. */
export type OtherHoldingsAtBlock = Map<string, { ref: OtherHoldingRef; rao: bigint }>;

export function otherHoldingKey(ref: OtherHoldingRef): string {
  return `${ref.coldkey}/${ref.holding}`;
}

/**
 * The holdings to read for a record: each coldkey's own EVM address when `evm` (the record moved TAO there),
 * and every crowdloan and liquidity asset its transactions name, for each coldkey.
 */
export function otherHoldingRefs(
  coldkeys: readonly string[],
  assets: Iterable<string>,
  evm: boolean,
): OtherHoldingRef[] {
  const refs: OtherHoldingRef[] = [];
  // An own EVM address's account that staked is a coldkey of the record (follow-own-evm-stake.ts): its TAO is
  // read as that coldkey's free TAO, not twice; and it has no EVM address of its own to read.
  const accounts = new Set(coldkeys.map(ownEvmAccountOf));
  const claims = [...new Set(assets)].filter(
    (a) => a.startsWith('crowdloan:') || a.startsWith('liquidity:') || a.startsWith('subnet-lock:'),
  );
  for (const coldkey of coldkeys) {
    const read = !accounts.has(coldkey) && !coldkeys.includes(ownEvmAccountOf(coldkey) ?? '');
    if (evm && read && ownEvmOf(coldkey)) refs.push({ coldkey, asset: 'TAO', holding: 'evm' });
    for (const asset of claims.sort()) {
      const [kind, a, b] = asset.split(':');
      const holding =
        kind === 'crowdloan'
          ? `crowdloan ${a}`
          : kind === 'subnet-lock'
            ? `subnet-lock ${a}/${b}`
            : `liquidity ${a}/${b}`;
      refs.push({ coldkey, asset, holding });
    }
  }
  return refs;
}

interface KeyOf {
  ref: OtherHoldingRef;
  key: string | null;
  decode: (raw: string | null) => bigint;
  /** A second item the holding needs (a registration's `NetworkRegisteredAt`), and the test it must pass. */
  also?: { key: string; holds: (raw: string | null) => boolean };
}

/** Reads `refs` at each of `blocks`; an empty list reads nothing. */
export async function readOtherHoldings(
  reader: ChainReader,
  refs: readonly OtherHoldingRef[],
  blocks: readonly number[],
  concurrency: number,
): Promise<Map<number, OtherHoldingsAtBlock>> {
  const result = new Map<number, OtherHoldingsAtBlock>();
  if (refs.length === 0) return result;
  const unique = [...new Set(blocks)].sort((a, b) => a - b);
  const read = await mapConcurrent(unique, concurrency, async (block) => {
    const hash = await reader.blockHash(block);
    const version = await reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
    const codec = await reader.codec(version.specVersion, hash);
    const keys: KeyOf[] = refs.map((ref) => {
      const [kind, a, b] = ref.asset.split(':');
      if (ref.holding === 'evm') {
        const account = u8aToHex(ownEvmOf(ref.coldkey)!.account);
        return {
          ref,
          key: codec.storageKey('System', 'Account', account).toLowerCase(),
          decode: (raw) => {
            const info = codec.decodeStorage('System', 'Account', raw) as unknown as {
              data: { free: Codec };
            } | null;
            return info === null ? 0n : rao(info.data.free);
          },
        };
      }
      if (kind === 'crowdloan') {
        if (!codec.hasStorage('Crowdloan', 'Contributions')) return { ref, key: null, decode: () => 0n };
        return {
          ref,
          key: codec.storageKey('Crowdloan', 'Contributions', Number(a), ref.coldkey).toLowerCase(),
          decode: (raw) => {
            const value = codec.decodeStorage('Crowdloan', 'Contributions', raw);
            return value === null ? 0n : rao(value);
          },
        };
      }
      if (kind === 'subnet-lock') {
        const netuid = Number(a);
        return {
          ref,
          key: codec.storageKey('SubtensorModule', 'SubnetOwner', netuid).toLowerCase(),
          decode: (raw) => {
            const owner = raw === null ? null : codec.decodeStorage('SubtensorModule', 'SubnetOwner', raw);
            const own = owner !== null && u8aToHex(owner.toU8a()) === u8aToHex(decodeAddress(ref.coldkey));
            return own ? NETWORK_LOCK_QUANTITY : 0n;
          },
          also: {
            key: codec.storageKey('SubtensorModule', 'NetworkRegisteredAt', netuid).toLowerCase(),
            holds: (raw) => {
              const at =
                raw === null ? null : codec.decodeStorage('SubtensorModule', 'NetworkRegisteredAt', raw);
              return at !== null && at.toString() === b;
            },
          },
        };
      }
      if (!codec.hasStorage('Swap', 'Positions')) return { ref, key: null, decode: () => 0n };
      return {
        ref,
        key: codec.storageKey('Swap', 'Positions', Number(a), ref.coldkey, BigInt(b!)).toLowerCase(),
        decode: (raw) => {
          const position = codec.decodeStorage('Swap', 'Positions', raw) as unknown as {
            liquidity: Codec;
          } | null;
          return position === null ? 0n : BigInt(position.liquidity.toString());
        },
      };
    });
    const asked = keys.flatMap((k) => [...(k.key === null ? [] : [k.key]), ...(k.also ? [k.also.key] : [])]);
    const values = new Map<string, string | null>();
    if (asked.length > 0) {
      const sets = await reader.rpc.send<Array<{ changes: Array<[string, string | null]> }>>(
        'state_queryStorageAt',
        [asked, hash],
      );
      for (const set of sets) for (const [key, value] of set.changes) values.set(key.toLowerCase(), value);
    }
    const held: OtherHoldingsAtBlock = new Map();
    for (const k of keys) {
      const amount =
        k.key === null || (k.also && !k.also.holds(values.get(k.also.key) ?? null))
          ? 0n
          : k.decode(values.get(k.key) ?? null);
      held.set(otherHoldingKey(k.ref), { ref: k.ref, rao: amount });
    }
    return [block, held] as const;
  });
  for (const [block, held] of read) result.set(block, held);
  return result;
}
