/** The world's ground truth: deterministic, shaped as the issue asks, and printed by `sbm devnet truth`. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { devnetCommand } from '../../pipeline/devnet/command.js';
import { buildTruth, defaultDevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';

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
    const newcomers = truth.subnets.filter((s) => s.registered_at > 0);
    expect(
      newcomers.some((s) => byRegistration.get(`${s.netuid}@${s.registered_at}`)?.[0] === 'flowing'),
    ).toBe(true);
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
      // The command line serves the mainnet world unless told `--world adversarial`.
      { ...defaultDevnetOptions, seed: 'cli-seed', historyDays: 3, genesis: GENESIS, magnitudes: 'mainnet' },
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

describe('start-up', () => {
  it('serves 400 days of history within 5 seconds', async () => {
    const started = Date.now();
    const devnet = await startDevnet({ ...defaultDevnetOptions, historyDays: 400, port: 0, pricePort: 0 });
    const elapsed = Date.now() - started;
    await devnet.stop();
    expect(elapsed).toBeLessThan(5_000);
  });
});
