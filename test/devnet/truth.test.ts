/** The world's ground truth: deterministic, shaped as the issue asks, and printed by `sbm devnet truth`. */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import { devnetCommand } from '../../pipeline/devnet/command.js';
import {
  buildTruth,
  defaultDevnetOptions,
  resolveWorldParams,
  startDevnet,
  World,
} from '../../pipeline/devnet/index.js';
import { events, field, isEvent, read, runtimeCall, storage } from './decorated.js';

const GENESIS = new Date('2025-02-01T00:00:00Z');
const NOW = GENESIS.getTime() + 10.25 * 86_400_000;
const OPTIONS = {
  ...defaultDevnetOptions,
  seed: 'truth-test',
  historyDays: 10,
  genesis: GENESIS,
  now: () => NOW,
};
const truth = buildTruth(OPTIONS, '2025-02-01', '2025-02-11');

describe('the simulated world', () => {
  it('is the same for the same seed and different for another', () => {
    expect(JSON.stringify(buildTruth(OPTIONS, '2025-02-03', '2025-02-04'))).toBe(
      JSON.stringify(buildTruth(OPTIONS, '2025-02-03', '2025-02-04')),
    );
    const other = buildTruth({ ...OPTIONS, seed: 'another' }, '2025-02-03', '2025-02-04');
    expect(other.burns).not.toEqual(buildTruth(OPTIONS, '2025-02-03', '2025-02-04').burns);
  });

  it('has 7,200 blocks a day from genesis and ends today at the head', () => {
    expect(truth.days.map((d) => d.date)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `2025-02-${String(i + 1).padStart(2, '0')}`),
      '2025-02-11',
    ]);
    truth.days.slice(0, 10).forEach((day, i) => {
      expect(day.first_block).toBe(i * 7_200);
      expect(day.last_block).toBe(i * 7_200 + 7_199);
    });
    expect(truth.days[10]!.last_block).toBe(10.25 * 7_200);
    expect(truth.upgrade_block).toBe(5.5 * 7_200);
  });

  it('holds root and 64+ named subnets, one netuid deregistered and registered again under another name', () => {
    expect(truth.subnets[0]).toMatchObject({ netuid: 0, name: 'root' });
    expect(new Set(truth.subnets.map((s) => s.netuid)).size).toBeGreaterThanOrEqual(65);
    const reused = truth.subnets.filter((s) => s.deregistered_at !== null);
    expect(reused.length).toBe(1);
    const again = truth.subnets.find((s) => s.netuid === reused[0]!.netuid && s.deregistered_at === null)!;
    expect(again.registered_at).toBeGreaterThan(reused[0]!.deregistered_at!);
    expect(again.name).not.toBe(reused[0]!.name);
    expect(
      truth.subnets.every((s) => s.owner.startsWith('5') && s.name.length > 0 && s.symbol.length > 0),
    ).toBe(true);
  });

  it('burns several hundred times a day, some subnets daily and some never, amounts above 2^53 included', () => {
    const fullDays = truth.days.slice(0, 10);
    for (const day of fullDays) {
      const count = truth.burns.filter((b) => b.block >= day.first_block && b.block <= day.last_block).length;
      expect(count).toBeGreaterThan(200);
    }
    const daysBurned = new Map<number, Set<string>>();
    for (const burn of truth.burns) {
      const date = burn.time.slice(0, 10);
      daysBurned.set(burn.netuid, (daysBurned.get(burn.netuid) ?? new Set()).add(date));
    }
    expect([...daysBurned.values()].some((days) => days.size >= 10)).toBe(true);
    expect([...daysBurned.values()].some((days) => days.size <= 2)).toBe(true);
    expect(truth.subnets.some((s) => !daysBurned.has(s.netuid))).toBe(true);
    expect(truth.burns.some((b) => BigInt(b.alpha_rao) > 2n ** 53n)).toBe(true);
    expect(new Set(truth.burns.map((b) => b.kind))).toEqual(new Set(['burn', 'buyback', 'recycle']));
  });

  it('makes buybacks only on spec 393 and lists their StakeAdded among the staking events', () => {
    const buybacks = truth.burns.filter((b) => b.kind === 'buyback');
    expect(buybacks.every((b) => b.block >= truth.upgrade_block && b.tao_rao !== null)).toBe(true);
    for (const buyback of buybacks) {
      const stake = truth.staking_events.find(
        (e) => e.block === buyback.block && e.event_index === buyback.event_index - 1,
      );
      expect(stake).toMatchObject({
        kind: 'StakeAdded',
        extrinsic_index: buyback.extrinsic_index,
        coldkey: buyback.coldkey,
      });
      expect(stake!.tao_rao).toBe(buyback.tao_rao);
    }
    expect(truth.burns.filter((b) => b.kind !== 'buyback').every((b) => b.tao_rao === null)).toBe(true);
  });

  it('gives each day its own price, root at exactly 1, and some subnet-days without a price', () => {
    const root = truth.panel_prices.filter((p) => p.netuid === 0);
    expect(root.every((p) => p.subnet_tao_rao === p.subnet_alpha_in_rao && p.subnet_tao_rao !== null)).toBe(
      true,
    );
    const one = truth.panel_prices.filter((p) => p.netuid === 1).map((p) => p.subnet_tao_rao);
    expect(new Set(one).size).toBe(one.length);
    expect(truth.panel_prices.some((p) => p.subnet_tao_rao === null)).toBe(true);
    expect(
      truth.panel_prices.every(
        (p) => p.panel_block === truth.days.find((d) => d.date === p.date)!.last_block,
      ),
    ).toBe(true);
  });

  it('suspends and restores emissions, and new subnets start with emission off', () => {
    const byRegistration = new Map<string, string[]>();
    for (const change of truth.emission_changes) {
      const key = `${change.netuid}@${change.registered_at}`;
      byRegistration.set(key, [...(byRegistration.get(key) ?? []), change.status]);
    }
    expect([...byRegistration.values()].some((s) => s.join(',') === 'suspended,flowing')).toBe(true);
    // Every registration after genesis: the reused netuid's second, the two new netuids and today's newest.
    const newcomers = truth.subnets.filter((s) => s.registered_at > 0);
    expect(newcomers.length).toBeGreaterThanOrEqual(4);
    const world = new World(resolveWorldParams(OPTIONS, NOW));
    const lastBlock = truth.days.at(-1)!.last_block;
    for (const newcomer of newcomers) {
      const key = `${newcomer.netuid}@${newcomer.registered_at}`;
      const registration = world.subnets.find(
        (s) => s.netuid === newcomer.netuid && s.registeredAt === newcomer.registered_at,
      )!;
      // Its first change, if the window holds one, turns emission on ...
      const first = truth.emission_changes.find(
        (c) => c.netuid === newcomer.netuid && c.registered_at === newcomer.registered_at,
      );
      expect(first?.status ?? 'none', key).not.toBe('suspended');
      // ... and emission is off from its registration block to the block before it (what the chain's
      // SubnetEmissionEnabled serves).
      for (const block of [newcomer.registered_at, (first?.block ?? lastBlock + 1) - 1]) {
        expect(world.emissions.at(registration, block).enabled, `${key} at ${block}`).toBe(false);
      }
    }
    // The window sees some of them turned on.
    expect(
      newcomers.filter((s) => byRegistration.has(`${s.netuid}@${s.registered_at}`)).length,
    ).toBeGreaterThan(0);
  });

  it('tracks 20+ coldkeys daily; the demo coldkey stakes, unstakes and moves stake', () => {
    expect(truth.coldkeys.length).toBeGreaterThanOrEqual(20);
    expect(truth.coldkeys.filter((c) => c.demo).length).toBe(1);
    const demo = truth.coldkeys.find((c) => c.demo)!;
    expect(demo.days.length).toBe(truth.days.length);
    expect(new Set(demo.days[0]!.positions.map((p) => p.netuid)).has(0)).toBe(true);
    expect(demo.days[0]!.positions.length).toBeGreaterThanOrEqual(5);
    const kinds = new Set(truth.staking_events.filter((e) => e.coldkey === demo.coldkey).map((e) => e.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(3);
    expect(new Set(truth.staking_events.map((e) => e.kind))).toEqual(
      new Set(['StakeAdded', 'StakeRemoved', 'StakeMoved', 'StakeTransferred', 'StakeSwapped', 'Transfer']),
    );
  });
});

describe('sbm devnet truth', () => {
  async function run(args: string[]): Promise<string> {
    let printed = '';
    const program = new Command('sbm').exitOverride();
    program.addCommand(
      devnetCommand({} as never, (text) => {
        printed += text;
      }).exitOverride(),
    );
    program.commands[0]!.commands[0]!.exitOverride().configureOutput({ writeErr: () => {} });
    await program.parseAsync(['node', 'sbm', 'devnet', ...args]);
    return printed;
  }

  it('prints the same JSON as buildTruth', async () => {
    const printed = await run([
      'truth',
      '--seed',
      'cli-seed',
      '--history-days',
      '3',
      '--genesis',
      '2025-02-01T00:00:00Z',
      '--from',
      '2025-02-02',
      '--to',
      '2025-02-02',
    ]);
    const expected = buildTruth(
      // The command line serves the mainnet world unless told `--world adversarial`, with its big coldkeys
      // unless told `--no-big-coldkeys`.
      {
        ...defaultDevnetOptions,
        seed: 'cli-seed',
        historyDays: 3,
        genesis: GENESIS,
        magnitudes: 'mainnet',
        bigColdkeys: true,
      },
      '2025-02-02',
      '2025-02-02',
    );
    expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('rejects bad option values with a one-line error', async () => {
    await expect(run(['truth', '--from', '2025-2-1', '--to', '2025-02-02'])).rejects.toThrow(
      /dates must be YYYY-MM-DD/,
    );
    await expect(
      run(['truth', '--history-days', 'x', '--from', '2025-02-01', '--to', '2025-02-02']),
    ).rejects.toThrow(/--history-days must be an integer/);
  });
});

describe('a long history', () => {
  // How fast it starts is measured by `make bench`, not here; this asks the chain for its oldest days.
  it('serves 400 days of history: the first day and one 200 days on read back as the truth has them', async () => {
    const now = Date.UTC(2026, 0, 15, 6);
    const options = { ...defaultDevnetOptions, seed: 'long-history', historyDays: 400, now: () => now };
    const devnet = await startDevnet({ ...options, port: 0, pricePort: 0 });
    const api = await ApiPromise.create({
      provider: new WsProvider(devnet.url),
      signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
      throwOnConnect: true,
    });
    try {
      const genesis = new Date(now - 400 * 86_400_000).toISOString().slice(0, 10);
      const middle = new Date(now - 200 * 86_400_000).toISOString().slice(0, 10);
      for (const date of [genesis, middle]) {
        const truth = buildTruth(options, date, date);
        const day = truth.days[0]!;
        expect(day).toMatchObject({ date });
        const state = await api.at(await api.rpc.chain.getBlockHash(day.last_block));
        const time = await read(state, 'timestamp.now');
        expect(BigInt(time.toString())).toBe(
          BigInt(Date.parse(truth.genesis) + day.last_block * truth.block_time_ms),
        );
        // Every subnet's reserves at the day's panel block.
        const prices = truth.panel_prices.filter((p) => p.panel_block === day.last_block);
        expect(prices.length).toBeGreaterThan(60);
        const netuids = prices.map((p) => p.netuid);
        const [tao, alphaIn] = await Promise.all([
          storage(state, 'subtensorModule.subnetTAO').multi(netuids),
          storage(state, 'subtensorModule.subnetAlphaIn').multi(netuids),
        ]);
        expect(tao.map(String)).toEqual(prices.map((p) => p.subnet_tao_rao ?? '0'));
        expect(alphaIn.map(String)).toEqual(prices.map((p) => p.subnet_alpha_in_rao ?? '0'));
        // The demo coldkey's positions and balance at the day's end.
        const demo = truth.coldkeys.find((c) => c.demo)!;
        const info = (await runtimeCall(
          state,
          'stakeInfoRuntimeApi.getStakeInfoForColdkey',
        )(demo.coldkey)) as Vec<Codec>;
        const positions = info.map((p) => ({
          hotkey: field(p, 'hotkey').toString(),
          netuid: Number(field(p, 'netuid').toString()),
          alpha_rao: field(p, 'stake').toString(),
        }));
        expect(positions.length).toBeGreaterThan(0);
        expect(positions).toEqual(demo.days[0]!.positions);
        const account = await read(state, 'system.account', demo.coldkey);
        expect(field(field(account, 'data'), 'free').toString()).toBe(demo.days[0]!.free_rao);
        // The day's first ten burn blocks: each AlphaBurned / AlphaRecycled where the truth has it.
        const burnBlocks = [...new Set(truth.burns.map((b) => b.block))].slice(0, 10);
        expect(burnBlocks.length).toBe(10);
        for (const block of burnBlocks) {
          const at = await api.at(await api.rpc.chain.getBlockHash(block));
          const records = await events(at);
          for (const burn of truth.burns.filter((b) => b.block === block)) {
            const { event } = records[burn.event_index]!;
            const method = burn.kind === 'recycle' ? 'AlphaRecycled' : 'AlphaBurned';
            expect(isEvent(at, `subtensorModule.${method}`, event)).toBe(true);
            expect(event.data.map(String)).toEqual([
              burn.coldkey,
              burn.hotkey,
              burn.alpha_rao,
              String(burn.netuid),
            ]);
          }
        }
      }
    } finally {
      await api.disconnect();
      await devnet.stop();
    }
  });
});
