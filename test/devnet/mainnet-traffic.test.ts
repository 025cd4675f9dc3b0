/**
 * Mainnet's density in the sandbox: block bodies the unmodified @polkadot/api decodes with each block's own
 * metadata (`api.derive.chain.getBlock` pairs every extrinsic with its events by phase), filler traffic with
 * fees and outcomes, burns inside batches and proxies, and a world whose own actions are untouched.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { MAINNET_EVENTS_PER_BLOCK } from '../../pipeline/devnet/world/mainnet-traffic.js';

const GENESIS = new Date('2026-10-01T00:00:00Z');
const DAY = 86_400_000;
const clock = GENESIS.getTime() + 14.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'traffic-test',
  historyDays: 14,
  genesis: GENESIS,
  blockTimeMs: 120_000,
  magnitudes: 'mainnet',
  now: () => clock,
  port: 0,
  pricePort: 0,
};

let devnet: RunningDevnet;
let api: ApiPromise;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
}, 60_000);

afterAll(async () => {
  await api?.disconnect();
  await devnet?.stop();
});

async function extended(block: number) {
  return api.derive.chain.getBlock(await api.rpc.chain.getBlockHash(block));
}

describe('the mainnet world with mainnet traffic', () => {
  it('blocks of every runtime decode: each extrinsic with its events, a fee and one outcome', async () => {
    const params = devnet.world.params;
    const samples = [5, params.upgradeBlock + 3];
    if (params.spec425Block !== null) samples.push(params.spec425Block + 3);
    if (params.spec473Block !== null) samples.push(params.spec473Block + 40);
    for (const block of samples) {
      const hash = await api.rpc.chain.getBlockHash(block);
      const signed = await api.derive.chain.getBlock(hash);
      expect(signed).toBeDefined();
      const extrinsics = signed!.extrinsics;
      expect(extrinsics.length).toBeGreaterThan(3);
      expect(`${extrinsics[0]!.extrinsic.method.section}.${extrinsics[0]!.extrinsic.method.method}`).toBe(
        'timestamp.set',
      );
      const timestamp = await (await api.at(hash)).query['timestamp']!['now']!();
      expect(extrinsics[0]!.extrinsic.method.args[0]!.toString()).toBe(timestamp.toString());
      for (const [index, ex] of extrinsics.entries()) {
        const outcomes = ex.events.filter(
          (e) => e.section === 'system' && /^Extrinsic(Success|Failed)$/.test(e.method),
        );
        expect(outcomes, `block ${block} extrinsic ${index}`).toHaveLength(1);
        expect(ex.events.at(-1)).toBe(outcomes[0]);
        if (ex.extrinsic.isSigned) expect(String(ex.extrinsic.signer)).toMatch(/^5/);
      }
      const sections = new Set(
        extrinsics.map((e) => `${e.extrinsic.method.section}.${e.extrinsic.method.method}`),
      );
      expect(sections.size).toBeGreaterThan(3);
      const fees = extrinsics.flatMap((e) => e.events).filter((e) => e.section === 'transactionPayment');
      expect(fees.length).toBeGreaterThan(0);
    }
  });

  it('holds about mainnet’s events and extrinsics per block, with every kind of traffic', async () => {
    const world = devnet.world;
    let events = 0;
    let extrinsics = 0;
    const names = new Set<string>();
    const from = 100;
    const count = 200;
    for (let block = from; block < from + count; block++) {
      const content = world.blockEvents(block);
      events += content.events.length;
      extrinsics += content.extrinsicCount;
      for (const body of content.bodies?.values() ?? []) names.add(`${body.call.pallet}.${body.call.call}`);
      for (const placed of content.events) names.add(`${placed.event.pallet}.${placed.event.name}`);
    }
    expect(events / count).toBeGreaterThan(MAINNET_EVENTS_PER_BLOCK * 0.8);
    expect(events / count).toBeLessThan(MAINNET_EVENTS_PER_BLOCK * 1.25);
    expect(extrinsics / count).toBeGreaterThan(10);
    for (const name of [
      'SubtensorModule.commit_weights',
      'SubtensorModule.reveal_weights',
      'Balances.transfer_keep_alive',
      'SubtensorModule.add_stake',
      'Ethereum.transact',
      'Utility.batch_all',
      'Proxy.proxy',
      'System.ExtrinsicFailed',
      'TransactionPayment.TransactionFeePaid',
      'Utility.ItemCompleted',
      'Proxy.ProxyExecuted',
      'Ethereum.Executed',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('submits some burns inside batches and proxy calls, with the events the runtime emits', async () => {
    const truth = buildTruth(OPTIONS, '2026-10-02', '2026-10-03');
    const wrappers = new Map<string, number>();
    for (const burn of truth.burns.slice(0, 60)) {
      const signed = await extended(burn.block);
      const ex = signed!.extrinsics[burn.extrinsic_index]!;
      const name = `${ex.extrinsic.method.section}.${ex.extrinsic.method.method}`;
      wrappers.set(name, (wrappers.get(name) ?? 0) + 1);
      const burnEvent = ex.events.find((e) => e.method === 'AlphaBurned' || e.method === 'AlphaRecycled');
      expect(burnEvent, `${burn.block}/${burn.event_index}`).toBeDefined();
      if (name.startsWith('utility.')) {
        const inner = (
          ex.extrinsic.method.args[0] as unknown as Array<{ section: string; method: string }>
        ).map((c) => `${c.section}.${c.method}`);
        expect(
          inner.some((c) => c === 'subtensorModule.burnAlpha' || c === 'subtensorModule.recycleAlpha'),
        ).toBe(true);
        expect(ex.events.filter((e) => e.method === 'ItemCompleted')).toHaveLength(2);
        expect(ex.events.some((e) => e.method === 'BatchCompleted')).toBe(true);
      }
      if (name === 'proxy.proxy') expect(ex.events.some((e) => e.method === 'ProxyExecuted')).toBe(true);
    }
    expect(wrappers.get('utility.batch') ?? 0).toBeGreaterThan(0);
    expect(wrappers.get('utility.batchAll') ?? 0).toBeGreaterThan(0);
    expect(wrappers.get('utility.forceBatch') ?? 0).toBeGreaterThan(0);
    expect(wrappers.get('proxy.proxy') ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it('leaves the world’s burns and stakes as a world without traffic has them', () => {
    const quiet = buildTruth({ ...OPTIONS, eventsPerBlock: null }, '2026-10-02', '2026-10-04');
    const busy = buildTruth(OPTIONS, '2026-10-02', '2026-10-04');
    const strip = (rows: Array<Record<string, unknown>>) =>
      rows.map(({ event_index: _e, extrinsic_index: _x, ...rest }) => rest);
    expect(busy.burns.length).toBeGreaterThan(100);
    expect(strip(busy.burns as never)).toEqual(strip(quiet.burns as never));
    expect(strip(busy.staking_events as never)).toEqual(strip(quiet.staking_events as never));
    expect(busy.coldkeys).toEqual(quiet.coldkeys);
    expect(busy.share_pools).toEqual(quiet.share_pools);
  });
});
