/**
 * Share pools read over a real WebSocket from the sandbox chain, at a day's last block run by spec 343 and at
 * one run by spec 393, equal the world's truth (`TotalHotkeyAlpha`, `TotalHotkeyShares` of every pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { readSharePools } from '../../pipeline/chain/share-pools.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';

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
  it('equals the truth at a spec-343 and a spec-393 day end', async () => {
    const specs: number[] = [];
    for (const date of ['2025-04-02', '2025-04-04']) {
      const day = truth.days.find((d) => d.date === date)!;
      const codec = await reader.codecOfBlock(day.last_block);
      specs.push(codec.specVersion);
      const pools = await readSharePools(reader, codec, await reader.blockHash(day.last_block), 4);
      const expected = truth.share_pools
        .filter((p) => p.date === date)
        .map((p) => ({
          netuid: p.netuid,
          registeredAt: p.registered_at,
          hotkey: p.hotkey,
          totalAlphaRao: BigInt(p.total_alpha_rao),
          totalSharesBits: BigInt(p.total_shares_bits),
        }))
        .sort((a, b) => a.netuid - b.netuid || (a.hotkey < b.hotkey ? -1 : 1));
      expect(expected.length).toBeGreaterThan(10);
      expect(pools).toEqual(expected);
      // The pools have grown: a share is worth more than the one alpha it was issued at.
      expect(pools.some((p) => p.totalAlphaRao * (1n << 64n) > p.totalSharesBits)).toBe(true);
      expect(pools.some((p) => p.netuid === 0)).toBe(true);
    }
    expect(specs).toEqual([343, 393]);
  });
});
