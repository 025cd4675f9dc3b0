/**
 * The sandbox's big coldkeys (option `bigColdkeys`, world/big-coldkeys.ts), read over the real WebSocket: a
 * staker in a hundred subnets on two hotkeys each, adding stake to each every day; a validator whose stake on
 * its own hotkey grows by its take; a miner paying for registrations; and every other coldkey's days exactly
 * as in the world without them.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { type Decorated, events, runtimeCall } from './decorated.js';

const GENESIS = new Date('2025-06-01T00:00:00Z');
const DAY = 86_400_000;
const BLOCK_MS = 600_000;
const BLOCKS_PER_DAY = DAY / BLOCK_MS;
const HISTORY_DAYS = 12;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'big-coldkeys-test',
  historyDays: HISTORY_DAYS,
  genesis: GENESIS,
  blockTimeMs: BLOCK_MS,
  magnitudes: 'mainnet',
  eventsPerBlock: null,
  bigColdkeys: true,
  now: () => GENESIS.getTime() + (HISTORY_DAYS + 0.5) * DAY,
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
}, 120_000);

afterAll(async () => {
  await api?.disconnect();
  await devnet?.stop();
});

async function at(block: number): Promise<Decorated> {
  return api.at((await api.rpc.chain.getBlockHash(block)).toHex());
}

const coldkeyOf = (role: string) =>
  devnet.world.stakers.big!.coldkeys.find((c) => c.role === role)!.staker.coldkey.address;

async function stakeRows(block: number, coldkey: string) {
  const rows = (await runtimeCall(
    await at(block),
    'stakeInfoRuntimeApi.getStakeInfoForColdkey',
  )(coldkey)) as unknown as Array<{ hotkey: Codec; netuid: Codec; stake: Codec }>;
  return [...rows].map((r) => ({
    hotkey: r.hotkey.toString(),
    netuid: Number(r.netuid.toString()),
    stake: BigInt(r.stake.toString()),
  }));
}

const dayEnd = (day: number) => (day + 1) * BLOCKS_PER_DAY - 1;

describe('big coldkeys', () => {
  it('a staker in at least 100 subnets holds about 200 positions and adds stake to 100 of them each day', async () => {
    const wide = coldkeyOf('wide-staker');
    const rows = await stakeRows(dayEnd(5), wide);
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(new Set(rows.map((r) => r.netuid)).size).toBeGreaterThanOrEqual(100);
    // One day's add_stake calls: a StakeAdded of this coldkey on each of 100 subnets.
    const day = 6;
    const blocks = devnet.world.stakers
      .actionsOfDay(day)
      .filter((a) => a.coldkey.address === wide)
      .map((a) => a.block);
    expect(blocks.length).toBeGreaterThanOrEqual(100);
    const records = await events(await at(blocks[0]!));
    const added = records.filter(
      (r) => r.event.method === 'StakeAdded' && r.event.data[0]?.toString() === wide,
    );
    expect(new Set(added.map((r) => r.event.data[3]?.toString())).size).toBeGreaterThanOrEqual(100);
  });

  it("a validator's stake on its own hotkey grows by more than its pool's growth: its take", async () => {
    const validator = devnet.world.stakers.big!.coldkeys.find((c) => c.role === 'validator')!;
    const own = validator.credited[0]!.position;
    const stakeOn = async (block: number) =>
      (await stakeRows(block, validator.staker.coldkey.address)).find(
        (r) => r.netuid === own.netuid && r.hotkey === own.hotkey.address,
      )!.stake;
    const pool = async (block: number) =>
      BigInt(
        (
          await (
            await at(block)
          ).query.subtensorModule!.totalHotkeyAlpha!(own.hotkey.address, own.netuid)
        ).toString(),
      );
    const [before, after] = [await stakeOn(dayEnd(3)), await stakeOn(dayEnd(4))];
    const [poolBefore, poolAfter] = [await pool(dayEnd(3)), await pool(dayEnd(4))];
    // Growth alone keeps its part of the pool; the take adds at least 20 alpha to its part.
    const grownOnly = (before * poolAfter) / poolBefore;
    expect(after - grownOnly).toBeGreaterThan(19n * 1_000_000_000n);
    expect(validator.staker.positions.length).toBeGreaterThanOrEqual(45);
  });

  it('a miner pays for a registration every ten days', async () => {
    const miner = coldkeyOf('miner');
    const registrations: ReturnType<RunningDevnet['world']['stakers']['actionsOfDay']> = [];
    for (let day = 0; day < HISTORY_DAYS; day++) {
      registrations.push(
        ...devnet.world.stakers
          .actionsOfDay(day)
          .filter((a) => a.coldkey.address === miner && a.kind === 'NeuronRegistered'),
      );
    }
    expect(registrations.length).toBe(1);
    const records = await events(await at(registrations[0]!.block));
    expect(records.some((r) => r.event.method === 'NeuronRegistered')).toBe(true);
    expect(
      records.some(
        (r) =>
          r.event.section === 'balances' &&
          r.event.method === 'Withdraw' &&
          r.event.data[0]?.toString() === miner &&
          BigInt(r.event.data[1]!.toString()) === registrations[0]!.tao,
      ),
    ).toBe(true);
  });

  it('leaves every other coldkey exactly as in the world without them', () => {
    const from = '2025-06-01';
    const to = '2025-06-12';
    const without = buildTruth({ ...OPTIONS, bigColdkeys: false }, from, to);
    const withBig = buildTruth(OPTIONS, from, to);
    const bigAddresses = new Set(devnet.world.stakers.big!.coldkeys.map((c) => c.staker.coldkey.address));
    expect(withBig.coldkeys.filter((c) => !bigAddresses.has(c.coldkey))).toEqual(without.coldkeys);
    expect(withBig.coldkeys.filter((c) => bigAddresses.has(c.coldkey))).toHaveLength(4);
    const others = (truth: typeof without) => truth.actions.filter((a) => !bigAddresses.has(a.coldkey));
    expect(others(withBig).length).toBe(others(without).length);
  });
});
