/**
 * The check's chain read against the sandbox over a real WebSocket, compared with the world's truth at
 * the finalized head: every tracked coldkey's positions and free balance, and the pools of the subnets
 * it holds. Also how many requests a read costs, and that it uses the runtime call's stake, never its
 * `emission`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailableError } from '../../../pipeline/chain/chain-errors.js';
import { ChainReader } from '../../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../pipeline/chain/rpc-client.js';
import { buildTruth, type RunningDevnet, startDevnet, type Truth } from '../../../pipeline/devnet/index.js';
import { createColdkeyChain } from '../../../pipeline/tax/chain-record/coldkey-chain.js';
import { ColdkeyHoldingsReader } from '../../../pipeline/tax/chain-record/read-coldkey-holdings.js';
import { GENESIS, NOW_MS, SANDBOX_OPTIONS } from '../../support/published-sandbox.js';

let devnet: RunningDevnet;
let rpc: RpcClient;
let truth: Truth;

beforeAll(async () => {
  devnet = await startDevnet(SANDBOX_OPTIONS);
  rpc = await connectRpc({ url: devnet.url });
  const finalizedNow = NOW_MS - SANDBOX_OPTIONS.finalityLag * SANDBOX_OPTIONS.blockTimeMs;
  const today = new Date(NOW_MS).toISOString().slice(0, 10);
  truth = buildTruth(
    { ...SANDBOX_OPTIONS, now: () => finalizedNow },
    GENESIS.toISOString().slice(0, 10),
    today,
  );
});

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

describe('ColdkeyHoldingsReader', () => {
  it('reads every tracked coldkey as the truth has it at the finalized head', async () => {
    const reader = new ColdkeyHoldingsReader(new ChainReader(rpc));
    const lastDay = truth.days.at(-1)!;
    const prices = new Map(
      truth.panel_prices.filter((p) => p.date === lastDay.date).map((p) => [p.netuid, p]),
    );
    let alphaHolders = 0;
    for (const coldkey of truth.coldkeys) {
      const expected = coldkey.days.at(-1)!;
      const holdings = await reader.read(coldkey.coldkey);
      expect(holdings.freeRao).toBe(BigInt(expected.free_rao));
      const got = holdings.positions
        .map((p) => ({ hotkey: p.hotkey, netuid: p.netuid, alpha_rao: p.stakeRao.toString() }))
        .sort(byPosition);
      const want = expected.positions.filter((p) => p.alpha_rao !== '0').sort(byPosition);
      expect(got).toEqual(want);
      const alphaNetuids = [...new Set(want.map((p) => p.netuid).filter((n) => n !== 0))].sort();
      expect([...holdings.pools.keys()].sort()).toEqual(alphaNetuids);
      for (const netuid of alphaNetuids) {
        const pool = holdings.pools.get(netuid)!;
        const price = prices.get(netuid)!;
        expect(price.panel_block).toBe(lastDay.last_block);
        expect(pool.taoRao?.toString()).toBe(price.subnet_tao_rao);
        expect(pool.alphaInRao?.toString()).toBe(price.subnet_alpha_in_rao);
        expect(pool.registeredAt).toBe(price.registered_at);
      }
      if (alphaNetuids.length > 0) alphaHolders += 1;
    }
    // The world must exercise the alpha path, or the pool comparison above proves nothing.
    expect(alphaHolders).toBeGreaterThan(0);
  });

  it('costs five requests once the runtime is known: head, version with call and account, pools', async () => {
    const reader = new ColdkeyHoldingsReader(new ChainReader(rpc));
    await reader.read(devnet.holderColdkey);
    const before = devnet.requests();
    const holdings = await reader.read(devnet.holderColdkey);
    expect(holdings.pools.size).toBeGreaterThan(0);
    expect(devnet.requests() - before).toBe(5);
  });

  it('reads an address the chain has never seen as holding nothing', async () => {
    const reader = new ColdkeyHoldingsReader(new ChainReader(rpc));
    const holdings = await reader.read('5CDvHBym6RLoxTdX9MS1acpaDbNxaFagqM5LpBiFGjWT6o1n');
    expect(holdings.positions).toEqual([]);
    expect(holdings.freeRao).toBe(0n);
    expect(holdings.pools.size).toBe(0);
  });
});

describe('createColdkeyChain', () => {
  it('fails fast with ChainUnavailableError when the node is down, and connects once it is back', async () => {
    const spare = await startDevnet({ ...SANDBOX_OPTIONS, port: 0 });
    const url = spare.url;
    await spare.stop();
    const chain = createColdkeyChain({ url, deadlineMs: 2_000 });
    try {
      const started = performance.now();
      await expect(chain.read(devnet.holderColdkey)).rejects.toBeInstanceOf(ChainUnavailableError);
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      await chain.close();
    }
    const live = createColdkeyChain({ url: devnet.url });
    try {
      const holdings = await live.read(devnet.holderColdkey);
      expect(holdings.positions.length).toBeGreaterThan(0);
    } finally {
      await live.close();
    }
  });
});

function byPosition(a: { hotkey: string; netuid: number }, b: { hotkey: string; netuid: number }): number {
  return a.netuid - b.netuid || a.hotkey.localeCompare(b.hotkey);
}
