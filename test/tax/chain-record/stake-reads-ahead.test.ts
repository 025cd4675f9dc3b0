/**
 * A pack's stake reads begun before its positions are known (`stakeReadsAhead`), against the sandbox over a
 * real WebSocket: the chain is read while the positions are still being worked out, the answers are the
 * world's truth at each day's end, and a build that fails before asking sends no more of them. The heads a
 * pack warms from its calendar while it reads its inputs (`warmBlockHeads`) are not read again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../pipeline/chain/rpc-client.js';
import { buildTruth, type RunningDevnet, startDevnet, type Truth } from '../../../pipeline/devnet/index.js';
import {
  type PositionRef,
  positionId,
  readStakesAtBlocks,
  stakeReadsAhead,
  warmBlockHeads,
} from '../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { GENESIS, NOW_MS, SANDBOX_OPTIONS } from '../../support/published-sandbox.js';

let devnet: RunningDevnet;
let rpc: RpcClient;
let truth: Truth;

beforeAll(async () => {
  devnet = await startDevnet(SANDBOX_OPTIONS);
  rpc = await connectRpc({ url: devnet.url, concurrency: 4 });
  const finalizedNow = NOW_MS - SANDBOX_OPTIONS.finalityLag * SANDBOX_OPTIONS.blockTimeMs;
  truth = buildTruth(
    { ...SANDBOX_OPTIONS, now: () => finalizedNow },
    GENESIS.toISOString().slice(0, 10),
    new Date(NOW_MS).toISOString().slice(0, 10),
  );
});

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

/** The demo coldkey's positions over the truth's days, and each day's last block. */
function demoRecord() {
  const demo = truth.coldkeys.find((c) => c.demo)!;
  const blocks = truth.days.map((day) => day.last_block);
  const positions = new Map<string, PositionRef>();
  for (const day of demo.days)
    for (const p of day.positions) {
      const position = { coldkey: demo.coldkey, hotkey: p.hotkey, netuid: p.netuid };
      positions.set(positionId(position), position);
    }
  return { demo, blocks, positions: [...positions.values()] };
}

/** Requests the client has sent once they stop growing (the heads in flight answered). */
async function settledRequests(): Promise<number> {
  let last = -1;
  while (rpc.stats.requests !== last) {
    last = rpc.stats.requests;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return last;
}

describe('stake reads begun before the positions are known', () => {
  it('read the chain while the positions are worked out, and give each day-end stake the truth gives', async () => {
    const { demo, blocks, positions } = demoRecord();
    const before = rpc.stats.requests;
    const reads = stakeReadsAhead(new ChainReader(rpc), [demo.coldkey], blocks, 4);
    // The positions take a while to work out (a big record's grouping): the heads are read meanwhile, more
    // than one request for each block before any position is given (however busy the machine).
    const deadline = Date.now() + 30_000;
    while (rpc.stats.requests - before <= blocks.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rpc.stats.requests - before).toBeGreaterThan(blocks.length);

    const stakes = await reads.ask(positions);
    expect([...stakes.keys()].sort((a, b) => a - b)).toEqual([...new Set(blocks)].sort((a, b) => a - b));
    for (const [i, day] of truth.days.entries()) {
      const read = stakes.get(day.last_block)!;
      const held = demo.days[i]!.positions.filter((p) => p.alpha_rao !== '0');
      for (const p of held) {
        const id = positionId({ coldkey: demo.coldkey, hotkey: p.hotkey, netuid: p.netuid });
        expect(read.stake.get(id), `${day.date} ${id}`).toBe(BigInt(p.alpha_rao));
      }
      // A position asked for and not held that day reads 0, as before.
      for (const position of positions) {
        if (held.some((p) => p.hotkey === position.hotkey && p.netuid === position.netuid)) continue;
        expect(read.stake.get(positionId(position)), `${day.date}`).toBe(0n);
      }
      expect(read.free.get(demo.coldkey)).toBe(BigInt(demo.days[i]!.free_rao));
    }
    // The same answers as reads that start with the positions known.
    const afterwards = await readStakesAtBlocks(new ChainReader(rpc), positions, [demo.coldkey], blocks, 4);
    for (const [block, read] of afterwards) {
      expect(stakes.get(block)!.stake).toEqual(read.stake);
      expect(stakes.get(block)!.subnets).toEqual(read.subnets);
    }
  });

  it('send no more once cancelled before the positions are asked for (a build that failed first)', async () => {
    const { demo } = demoRecord();
    // Every fifth block of the history: hundreds of heads, each three requests or more.
    const last = truth.days.at(-1)!.last_block;
    const blocks = Array.from({ length: Math.floor(last / 5) }, (_, i) => (i + 1) * 5);
    const before = rpc.stats.requests;
    const reads = stakeReadsAhead(new ChainReader(rpc), [demo.coldkey], blocks, 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    reads.cancel();
    const sent = (await settledRequests()) - before;
    // The cancelled reads stopped well short of all the heads (three requests or more each).
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(blocks.length);
  });

  it('read no head again that was warmed from the calendar, and ask for each runtime first', async () => {
    const { demo, blocks, positions } = demoRecord();
    // Every request of one reader's work, in the order sent, on a connection of its own.
    const recorded = async (work: (reader: ChainReader) => Promise<unknown>) => {
      const own = await connectRpc({ url: devnet.url, concurrency: 4 });
      const methods: string[] = [];
      const send = own.send.bind(own);
      own.send = <T>(method: string, params: unknown[]) => {
        methods.push(method);
        return send<T>(method, params);
      };
      try {
        return { value: await work(new ChainReader(own)), methods };
      } finally {
        await own.close();
      }
    };
    const count = (methods: readonly string[], method: string) => methods.filter((m) => m === method).length;
    const cold = await recorded((reader) =>
      stakeReadsAhead(reader, [demo.coldkey], blocks, 4).ask(positions),
    );
    const warmed = await recorded(async (reader) => {
      await warmBlockHeads(reader, blocks);
      return stakeReadsAhead(reader, [demo.coldkey], blocks, 4).ask(positions);
    });
    for (const method of ['chain_getBlockHash', 'state_getRuntimeVersion', 'state_getMetadata'])
      expect(count(warmed.methods, method), method).toBe(count(cold.methods, method));
    expect(warmed.methods.length).toBe(cold.methods.length);
    expect(warmed.value).toEqual(cold.value);
    // The runtime's metadata (the node's longest read) is asked for before the hashes of most blocks.
    const firstMetadata = warmed.methods.indexOf('state_getMetadata');
    const hashesBefore = count(warmed.methods.slice(0, firstMetadata), 'chain_getBlockHash');
    expect(firstMetadata).toBeGreaterThan(0);
    expect(hashesBefore).toBeLessThanOrEqual(Math.ceil(new Set(blocks).size / 16));
  });

  it('ask for a hash once however many ask for it at once', async () => {
    const before = rpc.stats.requests;
    const reader = new ChainReader(rpc);
    const block = truth.days[3]!.last_block;
    const hashes = await Promise.all([
      reader.blockHash(block),
      reader.blockHash(block),
      reader.blockHash(block),
    ]);
    expect(new Set(hashes).size).toBe(1);
    expect(rpc.stats.requests - before).toBe(1);
  });
});
