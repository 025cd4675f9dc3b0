import type { Metadata } from '@polkadot/types';
import { compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import type { Runtime } from '../runtime/runtime.js';
import type { BlockEvents } from '../world/block-events.js';
import { burnCall } from '../world/block-events.js';
import type { BodyCall, ExtrinsicBody } from '../world/mainnet-traffic.js';
import type { StakingAction } from '../world/staking-action.js';

/** Where a call lives in one runtime, and its arguments' names and lookup types. */
interface CallShape {
  index: Uint8Array;
  args: Array<{ name: string; type: string }>;
}

const shapes = new WeakMap<Runtime, Map<string, CallShape>>();

function callShapes(runtime: Runtime): Map<string, CallShape> {
  let map = shapes.get(runtime);
  if (map) return map;
  map = new Map();
  const registry = runtime.registry;
  const metadata = (registry as unknown as { metadata: Metadata['asLatest'] }).metadata;
  for (const pallet of metadata.pallets) {
    if (pallet.calls.isNone) continue;
    const variants = registry.lookup.getSiType(pallet.calls.unwrap().type).def.asVariant.variants;
    for (const variant of variants) {
      map.set(`${pallet.name.toString()}.${variant.name.toString()}`, {
        index: new Uint8Array([pallet.index.toNumber(), variant.index.toNumber()]),
        args: variant.fields.map((field) => ({
          name: field.name.unwrapOr('').toString(),
          type: registry.createLookupType(field.type),
        })),
      });
    }
  }
  shapes.set(runtime, map);
  return map;
}

/**
 * Bytes as hex throughout: `@polkadot/types` reads a `Uint8Array` given for `Bytes` as already
 * length-prefixed, and hex as the content itself (fixed arrays and account ids take either).
 */
function asInput(value: unknown): unknown {
  if (value instanceof Uint8Array) return u8aToHex(value);
  if (Array.isArray(value)) return value.map(asInput);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asInput(v)]));
  }
  return value;
}

function isCall(value: unknown): value is BodyCall {
  return typeof value === 'object' && value !== null && 'pallet' in value && 'call' in value;
}

/**
 * A call as SCALE bytes through the runtime's own metadata: pallet and call index, then each argument by
 * its name (an absent one is its type's default; nested calls, as in batches and proxies, are encoded the
 * same way). A call the runtime does not have becomes `System.remark` of its name.
 */
export function encodeCall(runtime: Runtime, call: BodyCall): Uint8Array {
  const shape = callShapes(runtime).get(`${call.pallet}.${call.call}`);
  if (!shape) {
    const text = new TextEncoder().encode(`${call.pallet}.${call.call}`);
    return encodeCall(runtime, { pallet: 'System', call: 'remark', args: { remark: text } });
  }
  const parts: Uint8Array[] = [shape.index];
  for (const arg of shape.args) {
    const value = call.args[arg.name];
    if (isCall(value)) parts.push(encodeCall(runtime, value));
    else if (Array.isArray(value) && value.length > 0 && value.every(isCall)) {
      parts.push(compactToU8a(value.length), ...value.map((inner) => encodeCall(runtime, inner)));
    } else
      parts.push(
        runtime.registry.createTypeUnsafe(arg.type, value === undefined ? [] : [asInput(value)]).toU8a(),
      );
  }
  return u8aConcat(...parts);
}

/**
 * An extrinsic as `chain_getBlock` lists it (hex of the length-prefixed bytes): unsigned (version 4), or
 * signed by `signer` with an sr25519 signature that decodes but was never made by a key (nothing in the
 * sandbox signs), an immortal era, the nonce and no tip, through the registry's own signed extensions.
 */
export function encodeExtrinsic(runtime: Runtime, body: ExtrinsicBody, nonce: number): string {
  const registry = runtime.registry;
  const method = registry.createTypeUnsafe('Call', [encodeCall(runtime, body.call)]);
  const extrinsic = registry.createTypeUnsafe<import('@polkadot/types').GenericExtrinsic>('Extrinsic', [
    method,
  ]);
  if (body.signer !== null) {
    const signature = u8aConcat(
      new Uint8Array([1]),
      blake2AsU8a(u8aConcat(body.signer, method.toU8a()), 512),
    );
    extrinsic.addSignature(body.signer, signature, {
      method: method.toHex(),
      era: '0x00',
      nonce,
      tip: 0,
      specVersion: runtime.specVersion,
      transactionVersion: 1,
      genesisHash: `0x${'00'.repeat(32)}`,
      blockHash: `0x${'00'.repeat(32)}`,
    });
  }
  return extrinsic.toHex();
}

/** The sandbox's sudo key (runtime upgrades and dissolutions are sudo calls on finney). */
const SUDO = blake2AsU8a('sandbox/sudo', 256);

function stakingCall(action: StakingAction): BodyCall {
  const hotkey = action.hotkey?.publicKey;
  const netuid = action.netuid;
  const sub = (call: string, args: Record<string, unknown>): BodyCall => ({
    pallet: 'SubtensorModule',
    call,
    args,
  });
  switch (action.kind) {
    case 'StakeAdded':
      return sub('add_stake', { hotkey, netuid, amount_staked: action.tao });
    case 'StakeRemoved':
      return sub('remove_stake', { hotkey, netuid, amount_unstaked: action.alpha ?? 0n });
    case 'StakeMoved':
      return sub('move_stake', {
        origin_hotkey: hotkey,
        destination_hotkey: action.destHotkey?.publicKey,
        origin_netuid: netuid,
        destination_netuid: action.destNetuid,
        alpha_amount: action.alpha ?? 0n,
      });
    case 'StakeTransferred':
      return sub('transfer_stake', {
        destination_coldkey: action.destColdkey?.publicKey,
        hotkey,
        origin_netuid: netuid,
        destination_netuid: action.destNetuid,
        alpha_amount: action.alpha ?? 0n,
      });
    case 'StakeSwapped':
      return sub('swap_stake', {
        hotkey,
        origin_netuid: netuid,
        destination_netuid: action.destNetuid,
        alpha_amount: action.alpha ?? 0n,
      });
    case 'Transfer':
      return {
        pallet: 'Balances',
        call: 'transfer_keep_alive',
        args: { dest: { Id: action.destColdkey?.publicKey }, value: action.tao },
      };
    case 'AlphaRecycled':
      return sub('recycle_alpha', { hotkey, amount: action.alpha ?? 0n, netuid });
    case 'HotkeySwapped':
      return sub('swap_hotkey', { hotkey, new_hotkey: action.destHotkey?.publicKey });
    case 'ColdkeySwapped':
      return sub('swap_coldkey', {
        old_coldkey: action.coldkey.publicKey,
        new_coldkey: action.destColdkey?.publicKey,
      });
    case 'RootClaimed':
      return sub('claim_root', {});
    case 'NetworkRegistered':
      return sub('register_network', { hotkey });
    case 'LimitOrdersExecuted':
      return { pallet: 'LimitOrders', call: 'execute_batched_orders', args: { netuid } };
    case 'LiquidityAdded':
      return {
        pallet: 'Swap',
        call: 'add_liquidity',
        args: {
          hotkey,
          netuid,
          tick_low: action.liquidity?.tickLow,
          tick_high: action.liquidity?.tickHigh,
          liquidity: action.liquidity?.liquidity,
        },
      };
    case 'LiquidityRemoved':
      return {
        pallet: 'Swap',
        call: 'remove_liquidity',
        args: { hotkey, netuid, position_id: action.liquidity?.positionId },
      };
    case 'CrowdloanContributed':
      return {
        pallet: 'Crowdloan',
        call: 'contribute',
        args: { crowdloan_id: action.crowdloan?.id, amount: action.tao },
      };
    case 'CrowdloanRefunded':
      return { pallet: 'Crowdloan', call: 'refund', args: { crowdloan_id: action.crowdloan?.id } };
    default:
      return { pallet: 'System', call: 'remark', args: { remark: new TextEncoder().encode(action.kind) } };
  }
}

/** The body of each of the block's extrinsics, in order: what the events' phases name. */
export function blockBodies(block: BlockEvents, timestampMs: number): ExtrinsicBody[] {
  const bodies: ExtrinsicBody[] = [];
  for (let index = 0; index < block.extrinsicCount; index++) {
    const given = block.bodies?.get(index);
    if (given) {
      bodies.push(given);
      continue;
    }
    if (index === 0) {
      bodies.push({
        signer: null,
        call: { pallet: 'Timestamp', call: 'set', args: { now: BigInt(timestampMs) } },
      });
      continue;
    }
    const burn = block.burns.find((b) => b.extrinsic === index);
    if (burn) {
      bodies.push({ signer: burn.action.coldkey.publicKey, call: burnCall(burn.action) });
      continue;
    }
    const staking = block.staking.find((s) => s.extrinsic === index);
    if (staking) {
      const call = stakingCall(staking.action);
      if (staking.action.kind === 'LiquidityRefunded') {
        // `disable_lp` (root) from spec 350; the sandbox's 343 row serves spec 343's metadata, which has not
        // that call yet: the nearest it has, `toggle_user_liquidity(netuid, false)`, under `Sudo.sudo`.
        bodies.push({
          signer: SUDO,
          call: {
            pallet: 'Sudo',
            call: 'sudo',
            args: {
              call: {
                pallet: 'Swap',
                call: 'toggle_user_liquidity',
                args: { netuid: staking.action.netuid, enable: false },
              },
            },
          },
        });
        continue;
      }
      bodies.push(
        staking.action.kind === 'NetworkRemoved' || staking.action.kind === 'NetworkLockRefunded'
          ? {
              signer: SUDO,
              call: {
                pallet: 'Sudo',
                call: 'sudo',
                args: {
                  call: {
                    pallet: 'SubtensorModule',
                    call: 'dissolve_network',
                    args: { coldkey: staking.action.coldkey.publicKey, netuid: staking.action.netuid },
                  },
                },
              },
            }
          : staking.action.kind === 'MultisigExecuted'
            ? // The co-signer's approval executes the call (world/held-deposits.ts).
              { signer: staking.action.destColdkey!.publicKey, call }
            : { signer: staking.action.coldkey.publicKey, call },
      );
      continue;
    }
    const named = block.events.find(
      (e) => e.extrinsic === index && e.event.name !== 'ExtrinsicSuccess',
    )?.event;
    if (named?.name === 'CodeUpdated') {
      bodies.push({
        signer: SUDO,
        call: {
          pallet: 'Sudo',
          call: 'sudo',
          args: {
            call: { pallet: 'System', call: 'set_code', args: { code: new TextEncoder().encode('\0asm') } },
          },
        },
      });
    } else if (named?.name === 'NetworkRemoved') {
      bodies.push({
        signer: SUDO,
        call: {
          pallet: 'Sudo',
          call: 'sudo',
          args: {
            call: { pallet: 'SubtensorModule', call: 'dissolve_network', args: { netuid: named.args[0] } },
          },
        },
      });
    } else if (named?.name === 'NetworkAdded') {
      bodies.push({
        signer: blake2AsU8a(`sandbox/registrant/${String(named.args[0])}`, 256),
        call: { pallet: 'SubtensorModule', call: 'register_network', args: {} },
      });
    } else if (named?.name === 'WeightsSet') {
      bodies.push({
        signer: blake2AsU8a(`sandbox/validator/${String(named.args[0])}/${String(named.args[1])}`, 256),
        call: { pallet: 'SubtensorModule', call: 'set_weights', args: { netuid: named.args[0] } },
      });
    } else {
      bodies.push({ signer: SUDO, call: { pallet: 'System', call: 'remark', args: {} } });
    }
  }
  return bodies;
}

/** `chain_getBlock`'s `extrinsics`: every body encoded with the runtime that ran the block. */
export function encodeBlockBody(runtime: Runtime, block: BlockEvents, timestampMs: number): string[] {
  return blockBodies(block, timestampMs).map((body, i) =>
    encodeExtrinsic(runtime, body, (block.block + i) % 1_000),
  );
}
