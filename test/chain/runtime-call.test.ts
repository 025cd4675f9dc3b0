/**
 * Runtime API calls against the sandbox over a real WebSocket: typed by the codec's own V15/V16
 * metadata, and, when the codec was made from V14 metadata (what a real node's `state_getMetadata`
 * answers), typed by the V15+ metadata fetched once through `Metadata_metadata_at_version`.
 */
import { Metadata, TypeRegistry } from '@polkadot/types';
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChainDataError } from '../../pipeline/chain/chain-errors.js';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { callRuntimeApi, runtimeApisOf } from '../../pipeline/chain/runtime-call.js';
import { RuntimeCodec } from '../../pipeline/chain/runtime-codec.js';
import { type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { readSpec343 } from '../../pipeline/devnet/runtime/metadata-files.js';
import { SANDBOX_OPTIONS } from '../support/published-sandbox.js';

const STAKE_INFO = 'StakeInfoRuntimeApi_get_stake_info_for_coldkey';
let devnet: RunningDevnet;
let rpc: RpcClient;

beforeAll(async () => {
  // Before the upgrade block the sandbox runs spec 343 (V15 metadata): the V14 stand-in below is its.
  devnet = await startDevnet({ ...SANDBOX_OPTIONS, upgradeBlock: 100_000 });
  rpc = await connectRpc({ url: devnet.url });
});

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

async function stakeOfDemo(codec: RuntimeCodec, hash: string): Promise<bigint[]> {
  const apis = await runtimeApisOf(rpc, codec, hash);
  const result = await callRuntimeApi(
    rpc,
    apis,
    STAKE_INFO,
    apis.encodeArgs(STAKE_INFO, [devnet.demoColdkey]),
    hash,
  );
  return (result as unknown as Array<{ stake: { toBigInt(): bigint } }>).map((info) => info.stake.toBigInt());
}

it('calls a runtime API typed by the metadata the codec holds', async () => {
  const reader = new ChainReader(rpc);
  const head = await reader.finalizedHead();
  const codec = await reader.codec(await reader.specVersionAt(head.hash), head.hash);
  expect(codec.specVersion).toBe(343);
  const stakes = await stakeOfDemo(codec, head.hash);
  expect(stakes.length).toBeGreaterThan(0);
  expect(stakes.every((stake) => stake > 0n)).toBe(true);
  const apis = await runtimeApisOf(rpc, codec, head.hash);
  expect(() => apis.encodeArgs(STAKE_INFO, [])).toThrow(ChainDataError);
  expect(() => apis.encodeArgs('NoSuchApi_method', [])).toThrow(/has no runtime API NoSuchApi_method/);
});

it('with V14 metadata (no APIs), fetches the V15 metadata once and answers the same', async () => {
  const reader = new ChainReader(rpc);
  const head = await reader.finalizedHead();
  const full = await reader.codec(343, head.hash);
  const v14 = new RuntimeCodec(343, v14Of(readSpec343().bytes));
  expect(v14.registry.metadata.apis.length).toBe(0);
  const calls = devnet.requests('state_call');
  expect(await stakeOfDemo(v14, head.hash)).toEqual(await stakeOfDemo(full, head.hash));
  // Metadata_metadata_versions, Metadata_metadata_at_version, then the two stake calls.
  expect(devnet.requests('state_call') - calls).toBe(4);
  await stakeOfDemo(v14, head.hash);
  expect(devnet.requests('state_call') - calls).toBe(5);
});

/** The V15 blob restated as V14, as a real node's `state_getMetadata` serves it: no `apis` section. */
function v14Of(bytes: Uint8Array): string {
  const registry = new TypeRegistry();
  const v15 = new Metadata(registry, bytes).asV15.toJSON() as unknown as {
    lookup: unknown;
    pallets: Array<Record<string, unknown>>;
    extrinsic: { version: number; callType: number; signedExtensions: unknown };
  };
  const v14 = {
    lookup: v15.lookup,
    pallets: v15.pallets.map(({ docs: _docs, ...pallet }) => pallet),
    extrinsic: {
      type: v15.extrinsic.callType,
      version: v15.extrinsic.version,
      signedExtensions: v15.extrinsic.signedExtensions,
    },
    type: 0,
  };
  const body = registry.createType('MetadataV14', v14).toU8a();
  return u8aToHex(u8aConcat(new Uint8Array([0x6d, 0x65, 0x74, 0x61, 14]), body));
}
