/**
 * Share pools read over a real WebSocket from the sandbox chain, at day ends run by spec 343, 393 and 425
 * (where part of the pools moved to `TotalHotkeySharesV2`), equal the world's truth (`TotalHotkeyAlpha`, and
 * the denominator as the chain reads it: V1 converted to SafeFloat by the sandbox's own conversion, else V2).
 */
import { Metadata, TypeRegistry } from '@polkadot/types';
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { RuntimeCodec } from '../../pipeline/chain/runtime-codec.js';
import { readSharePools, type SharePool } from '../../pipeline/chain/share-pools.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { readSpec393 } from '../../pipeline/devnet/runtime/metadata-files.js';
import { fromU64F64 } from '../../pipeline/devnet/world/safe-float.js';

const GENESIS = new Date('2025-04-01T00:00:00Z');
const DAY = 86_400_000;
const NOW = GENESIS.getTime() + 4.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'share-pools',
  historyDays: 4,
  genesis: GENESIS,
  // Ten-minute blocks: the world is the same shape, with fewer blocks to replay.
  blockTimeMs: 600_000,
  now: () => NOW,
  port: 0,
  pricePort: 0,
  // Spec 425 from the middle of the last day: the V2 maps appear and pools move to them as they are written.
  spec425Block: Math.floor((3.4 * DAY) / 600_000),
};

let devnet: RunningDevnet;
let rpc: RpcClient;
let reader: ChainReader;
let truth: Truth;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
  rpc = await connectRpc({ url: devnet.url, concurrency: 8 });
  reader = new ChainReader(rpc);
  truth = buildTruth(OPTIONS, '2025-04-01', '2025-04-05');
});

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

describe('readSharePools', () => {
  it('equals the truth at spec-343, spec-393 and spec-425 day ends', async () => {
    const specs: number[] = [];
    let v2Pools = 0;
    for (const date of ['2025-04-02', '2025-04-03', '2025-04-04']) {
      const day = truth.days.find((d) => d.date === date)!;
      const codec = await reader.codecOfBlock(day.last_block);
      specs.push(codec.specVersion);
      const pools = await readSharePools(reader, codec, await reader.blockHash(day.last_block), 4);
      const expected: SharePool[] = truth.share_pools
        .filter((p) => p.date === date)
        .map((p) => {
          const v2 = p.total_shares_v2;
          return {
            netuid: p.netuid,
            registeredAt: p.registered_at,
            hotkey: p.hotkey,
            totalAlphaRao: BigInt(p.total_alpha_rao),
            totalShares: v2
              ? { mantissa: BigInt(v2.mantissa), exponent: BigInt(v2.exponent) }
              : fromU64F64(BigInt(p.total_shares_bits)),
            totalSharesBits: v2 ? null : BigInt(p.total_shares_bits),
          };
        })
        .sort((a, b) => a.netuid - b.netuid || (a.hotkey < b.hotkey ? -1 : 1));
      expect(expected.length).toBeGreaterThan(10);
      expect(pools).toEqual(expected);
      v2Pools += pools.filter((p) => p.totalSharesBits === null).length;
      // The pools have grown: a share is worth more than the one alpha it was issued at.
      expect(
        pools.some((p) => p.totalSharesBits !== null && p.totalAlphaRao * (1n << 64n) > p.totalSharesBits),
      ).toBe(true);
      expect(pools.some((p) => p.netuid === 0)).toBe(true);
    }
    expect(specs).toEqual([343, 393, 425]);
    // Spec 425 wrote some pools to V2 (lazily) and left the rest in V1: both maps were read.
    expect(v2Pools).toBeGreaterThan(0);
  });
});

/** Spec 393's real metadata without `TotalHotkeyShares`: a runtime with neither share map. */
function codecWithoutShareMaps(): RuntimeCodec {
  const registry = new TypeRegistry();
  const body = new Metadata(registry, readSpec393().bytes).asV16.toJSON() as {
    pallets: Array<{ name: string; storage: { items: Array<{ name: string }> } | null }>;
  };
  const storage = body.pallets.find((p) => p.name === 'SubtensorModule')!.storage!;
  storage.items = storage.items.filter((item) => item.name !== 'TotalHotkeyShares');
  const bytes = u8aConcat(
    new Uint8Array([0x6d, 0x65, 0x74, 0x61, 16]),
    registry.createType('MetadataV16', body).toU8a(),
  );
  return new RuntimeCodec(393, u8aToHex(bytes));
}

describe('a runtime with neither share map', () => {
  it('fails with one line naming the items and the spec, instead of answering no pools', async () => {
    const codec = codecWithoutShareMaps();
    const hash = await reader.blockHash(truth.days[0]!.last_block);
    const failure = readSharePools(reader, codec, hash, 4);
    await expect(failure).rejects.toThrow(
      'runtime 393 has neither SubtensorModule.TotalHotkeyShares nor TotalHotkeySharesV2 beside TotalHotkeyAlpha: its share pools cannot be read',
    );
    await expect(failure).rejects.toThrow(/^[^\n]+$/);
  });
});
