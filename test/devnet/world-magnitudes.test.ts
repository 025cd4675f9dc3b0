/**
 * The world `make demo` and `sbm devnet` serve looks like Bittensor (docs/sandbox.md gives the sources):
 * 128 subnets, pools of thousands to tens of thousands of TAO, alpha from about 0.002 to 0.1 TAO, daily
 * burns per subnet from nothing to tens of thousands of alpha, a few subnets burning most, the network's
 * weekly burns worth less than its weekly emission, TAO/USD and TAO/GBP where TAO has traded. The
 * adversarial world, which the collection and publishing tests run on, keeps its amounts above 2^53 RAO.
 */
import { describe, expect, it } from 'vitest';
import { loadPipelineConfig } from '../../pipeline/config.js';
import { devnetCommand } from '../../pipeline/devnet/command.js';
import {
  defaultDevnetOptions,
  resolveWorldParams,
  type WorldMagnitudes,
} from '../../pipeline/devnet/options.js';
import { taoPrice } from '../../pipeline/devnet/price/price-series.js';
import { World } from '../../pipeline/devnet/world/world.js';

const NOW = Date.UTC(2026, 10, 25, 12);
const RAO = 1_000_000_000n;
/** About 25,000 TAO: 3,600 TAO a day (0.5 TAO a block, 7,200 blocks) since the first halving, times 7. */
const WEEKLY_EMISSION_TAO = 25_000;

function world(magnitudes: WorldMagnitudes): World {
  return new World(resolveWorldParams({ ...defaultDevnetOptions, magnitudes }, NOW));
}

/**
 * Subnets the demo coldkey's life dissolves (`NetworkRemoved` in the current runtime): one in a history that
 * runs spec 425 (the default with today's chain, `DEFAULT_RUNTIME_HISTORY`), none in one that ends with 393.
 */
function dissolvedByLife(w: World): number {
  return w.stakers.life.filter((l) => l.step.kind === 'dissolution' && l.block <= w.headAt(NOW)).length;
}

/** A pool price as a number of TAO per alpha (for ranges only; the product keeps exact integers). */
const price = (pool: { tao: bigint; alphaIn: bigint }) =>
  Number((pool.tao * 1_000_000n) / pool.alphaIn) / 1e6;
const tao = (rao: bigint) => Number(rao / 1_000_000n) / 1_000;

describe('the mainnet world (the default of sbm devnet and make demo)', () => {
  const w = world('mainnet');
  const head = w.headAt(NOW);
  const subnets = w.aliveAt(head).filter((s) => s.netuid !== 0);

  it('is what the command line serves unless told otherwise', () => {
    const command = devnetCommand(loadPipelineConfig({}));
    expect(command.options.find((o) => o.long === '--world')?.defaultValue).toBe('mainnet');
    // Code that starts a sandbox without naming a world gets the adversarial one (the tests' world).
    expect(resolveWorldParams(defaultDevnetOptions, NOW).magnitudes).toBe('adversarial');
  });

  it('has 128 subnets beside root, each with its own name (one dissolved by the demo in the current runtime)', () => {
    const slots = 128 - dissolvedByLife(w);
    expect(subnets).toHaveLength(slots);
    expect(new Set(subnets.map((s) => s.netuid)).size).toBe(slots);
    expect(new Set(subnets.map((s) => s.name)).size).toBe(slots);
  });

  it('has pools of thousands to tens of thousands of TAO, alpha from about 0.002 to 0.1 TAO', () => {
    const pools = subnets.map((s) => w.pools.at(s, head)).filter((p) => p !== null);
    expect(pools.length).toBeGreaterThan(120);
    const reserves = pools.map((p) => tao(p.tao));
    const prices = pools.map(price);
    expect(Math.min(...reserves)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...reserves)).toBeLessThan(100_000);
    expect(reserves.filter((r) => r >= 10_000).length).toBeGreaterThan(10);
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(0.0015);
    expect(Math.max(...prices)).toBeLessThanOrEqual(0.15);
    expect(prices.filter((p) => p < 0.01).length).toBeGreaterThan(10);
    expect(prices.filter((p) => p > 0.05).length).toBeGreaterThan(5);
  });

  it('burns up to tens of thousands of alpha a day per subnet, a few subnets most, less than a week of emission', () => {
    const weekTaoBySubnet = new Map<number, number>();
    const dayAlpha: number[] = [];
    let quietSubnetDays = 0;
    for (let day = w.params.historyDays - 7; day < w.params.historyDays; day++) {
      const alphaBySubnet = new Map<number, bigint>();
      for (const [block, actions] of w.burns.day(day)) {
        for (const action of actions) {
          if (action.kind === 'recycle') continue;
          const netuid = action.subnet.netuid;
          alphaBySubnet.set(netuid, (alphaBySubnet.get(netuid) ?? 0n) + action.alpha);
          const pool = w.pools.at(action.subnet, block);
          const value = pool ? tao((action.alpha * pool.tao) / pool.alphaIn) : 0;
          weekTaoBySubnet.set(netuid, (weekTaoBySubnet.get(netuid) ?? 0) + value);
        }
      }
      for (const alpha of alphaBySubnet.values()) dayAlpha.push(tao(alpha));
      quietSubnetDays += subnets.length - alphaBySubnet.size;
    }
    expect(Math.max(...dayAlpha)).toBeGreaterThan(10_000);
    expect(Math.max(...dayAlpha)).toBeLessThan(100_000);
    expect(Math.min(...dayAlpha)).toBeLessThan(10);
    expect(quietSubnetDays).toBeGreaterThan(subnets.length * 7 * 0.3);
    const values = [...weekTaoBySubnet.values()].sort((a, b) => b - a);
    const week = values.reduce((a, b) => a + b, 0);
    expect(week).toBeGreaterThan(1_000);
    expect(week).toBeLessThan(WEEKLY_EMISSION_TAO);
    expect(values.slice(0, 5).reduce((a, b) => a + b, 0) / week).toBeGreaterThan(0.5);
  });

  it('emits about 0.5 TAO a block over all subnets', () => {
    const total = subnets.reduce((sum, s) => sum + w.emissions.at(s, head).taoIn, 0n);
    expect(tao(total)).toBeGreaterThan(0.3);
    expect(tao(total)).toBeLessThan(0.8);
  });

  it('prices TAO between 100 and 800 US dollars, and the pound at 0.7 to 0.85 of the dollar', () => {
    for (let day = 0; day <= w.params.historyDays; day++) {
      const ms = w.params.genesisMs + day * 86_400_000;
      const usd = taoPrice(w.params.seed, 'usd', ms);
      const gbp = taoPrice(w.params.seed, 'gbp', ms);
      expect(usd).toBeGreaterThan(100);
      expect(usd).toBeLessThan(800);
      expect(gbp / usd).toBeGreaterThan(0.7);
      expect(gbp / usd).toBeLessThan(0.85);
    }
  });
});

describe('the adversarial world (the tests)', () => {
  it('still burns amounts above 2^53 RAO, which no double holds exactly', () => {
    const w = world('adversarial');
    let above = 0;
    for (let day = 0; day < 7; day++) {
      for (const actions of w.burns.day(day).values())
        above += actions.filter((a) => a.alpha > 2n ** 53n).length;
    }
    expect(above).toBeGreaterThan(0);
    expect(w.aliveAt(w.headAt(NOW)).length).toBe(68 - dissolvedByLife(w));
    expect(RAO).toBe(10n ** 9n);
  });
});
