import { compactToU8a, hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { RAO_PER_UNIT } from '../../amounts/rao.js';
import type { Runtime } from '../runtime/runtime.js';
import type { SubnetRegistration } from '../world/subnets.js';
import type { World } from '../world/world.js';
import { readUintLe } from './scale.js';
import { identity } from './storage.js';

/** A runtime call the sandbox cannot answer: a real node reports a failed execution the same way. */
export class RuntimeCallError extends Error {
  override name = 'RuntimeCallError';
}

function bytesOf(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

/**
 * Answers `state_call(method, data, at)` with SCALE bytes encoded by the runtime whose code is in the
 * state at `block`: the Metadata and Core calls the client makes on connect, and the runtime APIs
 * the pipeline reads (stake info, dynamic info, alpha price).
 */
export function runtimeCall(
  world: World,
  runtime: Runtime,
  block: number,
  method: string,
  data: string,
): string {
  const input = data.startsWith('0x') ? data.slice(2) : data;
  switch (method) {
    case 'Core_version':
      return runtime.versionHex;
    case 'Metadata_metadata_versions':
      return runtime.metadataVersionsHex;
    case 'Metadata_metadata_at_version':
      return Number(readUintLe(input.slice(0, 8))) === runtime.metadataVersion
        ? runtime.opaqueMetadataHex
        : '0x00';
    case 'Metadata_metadata': {
      const bytes = hexToU8a(runtime.metadataHex);
      return u8aToHex(u8aConcat(compactToU8a(bytes.length), bytes));
    }
    case 'StakeInfoRuntimeApi_get_stake_info_for_coldkey':
      return encodeOutput(runtime, method, stakeInfo(world, `0x${input.slice(0, 64)}`, block));
    case 'StakeInfoRuntimeApi_get_stake_info_for_coldkeys': {
      const coldkeys = decodeAccounts(input);
      return encodeOutput(
        runtime,
        method,
        coldkeys.map((coldkey) => [coldkey, stakeInfo(world, coldkey, block)]),
      );
    }
    case 'SubnetInfoRuntimeApi_get_all_dynamic_info': {
      const list = [];
      for (let netuid = 0; netuid <= world.maxNetuid; netuid++) {
        const subnet = world.registrationAt(netuid, block);
        list.push(subnet ? dynamicInfo(world, subnet, block) : null);
      }
      return encodeOutput(runtime, method, list);
    }
    case 'SubnetInfoRuntimeApi_get_dynamic_info': {
      const subnet = world.registrationAt(Number(readUintLe(input.slice(0, 4))), block);
      return encodeOutput(runtime, method, subnet ? dynamicInfo(world, subnet, block) : null);
    }
    case 'SwapRuntimeApi_current_alpha_price': {
      const netuid = Number(readUintLe(input.slice(0, 4)));
      const subnet = world.registrationAt(netuid, block);
      const pool = subnet ? world.pools.at(subnet, block) : null;
      const price = netuid === 0 ? RAO_PER_UNIT : pool ? (pool.tao * RAO_PER_UNIT) / pool.alphaIn : 0n;
      return encodeOutput(runtime, method, price);
    }
    default:
      throw new RuntimeCallError(`Execution failed: Exported method ${method} is not found (sandbox)`);
  }
}

function encodeOutput(runtime: Runtime, method: string, value: unknown): string {
  const shape = runtime.runtimeCall(method);
  if (!shape) throw new RuntimeCallError(`Execution failed: runtime ${runtime.specVersion} has no ${method}`);
  return runtime.registry.createTypeUnsafe(shape.outputType, [value]).toHex();
}

function decodeAccounts(input: string): string[] {
  // Vec<AccountId32>: compact length, then 32-byte keys.
  const mode = Number.parseInt(input.slice(0, 2), 16) & 3;
  const prefixBytes = mode === 0 ? 1 : mode === 1 ? 2 : 4;
  const body = input.slice(prefixBytes * 2);
  const keys: string[] = [];
  for (let at = 0; at + 64 <= body.length; at += 64) keys.push(`0x${body.slice(at, at + 64)}`);
  return keys;
}

function stakeInfo(world: World, coldkeyHex: string, block: number) {
  const staker = world.stakers.findStaker(coldkeyHex.toLowerCase());
  if (!staker) return [];
  // Spec 473 also lists a pair's positions whose alpha key remains at stake 0 (Stakers.zeroStakeAt).
  const listed = [
    ...world.stakers.positionsAt(staker, block),
    ...world.stakers.zeroStakeAt(staker, block).map((position) => ({ position, alpha: 0n })),
  ];
  const order = (p: { hotkey: { hex: string }; netuid: number }) =>
    staker.hotkeys.findIndex((h) => h.hex === p.hotkey.hex) * 65_536 + p.netuid;
  listed.sort((a, b) => order(a.position) - order(b.position));
  return listed.map(({ position, alpha }) => ({
    hotkey: position.hotkey.publicKey,
    coldkey: staker.coldkey.publicKey,
    netuid: position.netuid,
    stake: alpha,
    locked: 0n,
    emission: alpha / 5_000n,
    taoEmission: 0n,
    drain: 0n,
    isRegistered: true,
  }));
}

function dynamicInfo(world: World, subnet: SubnetRegistration, block: number) {
  const pool = world.pools.at(subnet, block);
  const emission = world.emissions.at(subnet, block);
  const tempo = 360;
  return {
    netuid: subnet.netuid,
    ownerHotkey: subnet.ownerHotkey.publicKey,
    ownerColdkey: subnet.owner.publicKey,
    subnetName: bytesOf(subnet.name),
    tokenSymbol: bytesOf(subnet.symbol),
    tempo,
    lastStep: block - (block % (tempo + 1)),
    blocksSinceLastStep: block % (tempo + 1),
    emission: emission.taoIn,
    alphaIn: pool?.alphaIn ?? 0n,
    alphaOut: pool?.alphaOut ?? 0n,
    taoIn: pool?.tao ?? 0n,
    alphaOutEmission: emission.alphaOut,
    alphaInEmission: emission.alphaIn,
    taoInEmission: emission.taoIn,
    pendingAlphaEmission: 0n,
    pendingRootEmission: 0n,
    subnetVolume: 0n,
    networkRegisteredAt: subnet.registeredAt,
    subnetIdentity: identity(subnet),
    movingPrice: { bits: pool ? (pool.tao << 32n) / pool.alphaIn : 0n },
  };
}
