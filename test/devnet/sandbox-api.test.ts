/**
 * The sandbox through the real @polkadot/api over a real WebSocket, every value compared with the
 * world's ground truth (`buildTruth`), which is computed from the world and never from the server's answers.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Header } from '@polkadot/types/interfaces';
import type { Codec } from '@polkadot/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { type Decorated, events, field, isEvent, read, runtimeCall, storage, unwrap } from './decorated.js';

const GENESIS = new Date('2025-03-01T00:00:00Z');
const DAY = 86_400_000;
let clock = GENESIS.getTime() + 6.5 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'sandbox-api-test',
  historyDays: 6,
  genesis: GENESIS,
  // The two runtimes of the older history (343 → 393), whatever the sandbox's default: spec 425 and 473 have
  // their own tests (spec-425-runtime, spec-473-runtime).
  runtimes: 'legacy',
  now: () => clock,
  port: 0,
  pricePort: 0,
};

let devnet: RunningDevnet;
let api: ApiPromise;
let truth: Truth;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
  truth = buildTruth(OPTIONS, '2025-03-01', '2025-03-07');
});

afterAll(async () => {
  await api?.disconnect();
  await devnet?.stop();
});

async function at(block: number) {
  return api.at(await api.rpc.chain.getBlockHash(block));
}

const upgrade = () => truth.upgrade_block;

describe('connecting', () => {
  it('serves spec 393 at the head, spec 343 before the upgrade and genesis at block 0', async () => {
    expect(api.runtimeVersion.specVersion.toNumber()).toBe(393);
    expect(api.genesisHash.toHex()).toBe(devnet.blockHash(0));
    expect((await at(upgrade() - 1)).runtimeVersion.specVersion.toNumber()).toBe(343);
    expect((await at(upgrade())).runtimeVersion.specVersion.toNumber()).toBe(393);
    expect(api.registry.chainSS58).toBe(42);
    expect((await api.rpc.system.chain()).toString()).toBe('Bittensor');
  });
});

describe('storage at historical blocks on both runtimes', () => {
  it('Timestamp.Now is genesis + n × block time', async () => {
    for (const block of [1, upgrade() - 1, upgrade(), devnet.head()]) {
      const now = await read(await at(block), 'timestamp.now');
      expect(BigInt(now.toString())).toBe(BigInt(GENESIS.getTime() + block * OPTIONS.blockTimeMs));
    }
  });

  it('SubnetTAO and SubnetAlphaIn at every panel block equal the truth, nulls included', async () => {
    const unpriced = truth.panel_prices.filter((p) => p.subnet_tao_rao === null);
    expect(unpriced.length).toBeGreaterThan(0);
    const dates = new Set(truth.days.slice(0, 6).map((d) => d.date));
    for (const date of dates) {
      const rows = truth.panel_prices.filter((p) => p.date === date);
      const state = await at(rows[0]!.panel_block);
      const netuids = rows.map((r) => r.netuid);
      const [tao, alphaIn] = await Promise.all([
        storage(state, 'subtensorModule.subnetTAO').multi(netuids),
        storage(state, 'subtensorModule.subnetAlphaIn').multi(netuids),
      ]);
      rows.forEach((row, i) => {
        // Absent entries read as the default 0: no pool, unknown price.
        expect(tao[i]!.toString()).toBe(row.subnet_tao_rao ?? '0');
        expect(alphaIn[i]!.toString()).toBe(row.subnet_alpha_in_rao ?? '0');
      });
    }
  });

  it('SubnetIdentitiesV3 and NetworkRegisteredAt follow a reused netuid through both registrations', async () => {
    const counts = new Map<number, number>();
    for (const s of truth.subnets) counts.set(s.netuid, (counts.get(s.netuid) ?? 0) + 1);
    const reused = [...counts].find(([, n]) => n === 2)?.[0];
    expect(reused).toBeDefined();
    const [before, after] = truth.subnets.filter((s) => s.netuid === reused);
    expect(before!.deregistered_at).not.toBeNull();
    for (const registration of [before!, after!]) {
      const state = await at(registration.registered_at + 1);
      const identity = unwrap(await read(state, 'subtensorModule.subnetIdentitiesV3', registration.netuid));
      expect(utf8(field(identity!, 'subnetName'))).toBe(registration.name);
      const symbol = await read(state, 'subtensorModule.tokenSymbol', registration.netuid);
      expect(utf8(symbol)).toBe(registration.symbol);
      const registeredAt = await read(state, 'subtensorModule.networkRegisteredAt', registration.netuid);
      expect(registeredAt.toString()).toBe(String(registration.registered_at));
      const owner = await read(state, 'subtensorModule.subnetOwner', registration.netuid);
      expect(owner.toString()).toBe(registration.owner);
    }
    const gap = await at(before!.deregistered_at!);
    expect(unwrap(await read(gap, 'subtensorModule.subnetIdentitiesV3', reused))).toBeNull();
    expect((await read(gap, 'subtensorModule.networksAdded', reused)).toPrimitive()).toBe(false);
  });

  it('lists every subnet alive at a block through entries() (state_getKeysPaged)', async () => {
    const block = truth.days[4]!.last_block;
    const entries = await storage(await at(block), 'subtensorModule.networksAdded').entries();
    const alive = truth.subnets
      .filter((s) => s.registered_at <= block && (s.deregistered_at === null || s.deregistered_at > block))
      .map((s) => s.netuid);
    expect(entries.map(([key]) => Number(key.args[0]!.toString())).sort((a, b) => a - b)).toEqual(
      alive.sort((a, b) => a - b),
    );
  });

  it('emission storage flips with each emission change (SubnetEmissionEnabled is a sandbox addition)', async () => {
    expect(truth.emission_changes.length).toBeGreaterThan(0);
    for (const change of truth.emission_changes) {
      const [before, after] = await Promise.all([at(change.block - 1), at(change.block)]);
      const enabled = await read(after, 'subtensorModule.subnetEmissionEnabled', change.netuid);
      const wasEnabled = await read(before, 'subtensorModule.subnetEmissionEnabled', change.netuid);
      const tao = await read(after, 'subtensorModule.subnetTaoInEmission', change.netuid);
      expect(enabled.toPrimitive()).toBe(change.status === 'flowing');
      expect(wasEnabled.toPrimitive()).toBe(change.status !== 'flowing');
      expect(BigInt(tao.toString()) > 0n).toBe(change.status === 'flowing');
    }
  });
});

describe('System.Events decoded by name on both runtimes', () => {
  async function decodedBurns(block: number) {
    const state = await at(block);
    const records = await events(state);
    const burns: Array<Record<string, unknown>> = [];
    records.forEach((record, index) => {
      const { event, phase } = record;
      const extrinsic = phase.asApplyExtrinsic.toNumber();
      const sameExtrinsic = records.filter((r) => r.phase.asApplyExtrinsic.toNumber() === extrinsic);
      const isBuyback = sameExtrinsic.some((r) => isEvent(state, 'subtensorModule.AddStakeBurn', r.event));
      const burned = isEvent(state, 'subtensorModule.AlphaBurned', event);
      const recycled = isEvent(state, 'subtensorModule.AlphaRecycled', event);
      if (!burned && !recycled) return;
      const [coldkey, hotkey, amount, netuid] = event.data;
      const stake = sameExtrinsic.find((r) => isEvent(state, 'subtensorModule.StakeAdded', r.event));
      burns.push({
        block,
        event_index: index,
        extrinsic_index: extrinsic,
        netuid: Number(netuid!.toString()),
        kind: recycled ? 'recycle' : isBuyback ? 'buyback' : 'burn',
        coldkey: coldkey!.toString(),
        hotkey: hotkey!.toString(),
        alpha_rao: amount!.toString(),
        tao_rao: isBuyback ? stake!.event.data[2]!.toString() : null,
        spec: state.runtimeVersion.specVersion.toNumber(),
        variant: event.index.toHex(),
      });
    });
    return burns;
  }

  it('every burn of the upgrade day decodes to the truth, AlphaBurned moving from 91 to 95', async () => {
    const day = truth.days.find((d) => d.first_block <= upgrade() && upgrade() <= d.last_block)!;
    const expected = truth.burns.filter((b) => b.block >= day.first_block && b.block <= day.last_block);
    expect(expected.length).toBeGreaterThan(100);
    const blocks = [...new Set(expected.map((b) => b.block))];
    const decoded = (await Promise.all(blocks.map(decodedBurns))).flat();
    expect(decoded.map(({ spec, variant, ...rest }) => rest)).toEqual(
      expected.map(({ time, registered_at, ...rest }) => rest),
    );
    const burnIndexes = new Set(
      decoded.filter((b) => b.kind === 'burn').map((b) => `${b.spec}:${b.variant}`),
    );
    expect(burnIndexes).toEqual(new Set(['343:0x075b', '393:0x075f']));
    expect(decoded.some((b) => b.kind === 'buyback')).toBe(true);
    expect(expected.every((b) => b.kind !== 'buyback' || b.block >= upgrade())).toBe(true);
  });

  it('carries amounts above 2^53 RAO exactly', async () => {
    const above = (rao: string | null): rao is string => rao !== null && BigInt(rao) > 2n ** 53n;
    // A float cannot hold these: an amount that passed through a Number on its way comes back changed.
    const floatWouldRound = (rao: string) => BigInt(Number(rao)) !== BigInt(rao);
    const burns = truth.burns.filter((b) => above(b.alpha_rao));
    const stakes = truth.staking_events.filter((e) => e.kind === 'StakeAdded' && above(e.alpha_rao));
    const reserves = truth.panel_prices.filter((p) => above(p.subnet_alpha_in_rao));
    expect(burns.filter((b) => floatWouldRound(b.alpha_rao)).length).toBeGreaterThan(0);
    expect(stakes.filter((e) => floatWouldRound(e.alpha_rao!)).length).toBeGreaterThan(0);
    expect(reserves.filter((p) => floatWouldRound(p.subnet_alpha_in_rao!)).length).toBeGreaterThan(0);
    // Each amount read back from the chain, decoded by @polkadot/api: events (u64 fields) and storage.
    const eventAmount = async (block: number, index: number, method: string, field: number) => {
      const record = (await events(await at(block)))[index]!;
      expect(record.event.method).toBe(method);
      return record.event.data[field]!.toString();
    };
    for (const burn of burns) {
      const method = burn.kind === 'recycle' ? 'AlphaRecycled' : 'AlphaBurned';
      // AlphaBurned / AlphaRecycled(coldkey, hotkey, amount, netuid)
      expect(await eventAmount(burn.block, burn.event_index, method, 2)).toBe(burn.alpha_rao);
    }
    for (const stake of stakes) {
      // StakeAdded(coldkey, hotkey, tao, alpha, netuid, …)
      expect(await eventAmount(stake.block, stake.event_index, 'StakeAdded', 3)).toBe(stake.alpha_rao);
    }
    for (const price of reserves) {
      const alphaIn = await read(await at(price.panel_block), 'subtensorModule.subnetAlphaIn', price.netuid);
      expect(alphaIn.toString()).toBe(price.subnet_alpha_in_rao);
    }
  });

  it('staking events of a day decode to the truth, each in its own extrinsic after the timestamp', async () => {
    const day = truth.days[2]!;
    const expected = truth.staking_events.filter(
      (e) => e.block >= day.first_block && e.block <= day.last_block,
    );
    expect(expected.length).toBeGreaterThan(0);
    for (const row of expected) {
      const state = await at(row.block);
      const records = await events(state);
      const record = records[row.event_index]!;
      expect(record.event.method).toBe(row.kind);
      expect(record.phase.asApplyExtrinsic.toNumber()).toBe(row.extrinsic_index);
      expect(row.extrinsic_index).toBeGreaterThan(0);
      expect(record.event.data[0]!.toString()).toBe(row.coldkey);
      const next = records[row.event_index + 1]!;
      if (row.kind !== 'StakeAdded') expect(isEvent(state, 'system.ExtrinsicSuccess', next.event)).toBe(true);
    }
  });
});

describe('stakers', () => {
  it('getStakeInfoForColdkey and System.Account of the demo coldkey equal the truth every day', async () => {
    const demo = truth.coldkeys.find((c) => c.demo)!;
    expect(demo.coldkey).toBe(devnet.demoColdkey);
    for (const [i, day] of demo.days.entries()) {
      const state = await at(truth.days[i]!.last_block);
      const info = (await runtimeCall(
        state,
        'stakeInfoRuntimeApi.getStakeInfoForColdkey',
      )(demo.coldkey)) as Vec<Codec>;
      const positions = info.map((p) => ({
        hotkey: field(p, 'hotkey').toString(),
        netuid: Number(field(p, 'netuid').toString()),
        alpha_rao: field(p, 'stake').toString(),
      }));
      expect(positions).toEqual(day.positions);
      const account = await read(state, 'system.account', demo.coldkey);
      expect(field(field(account, 'data'), 'free').toString()).toBe(day.free_rao);
    }
    // Positions change over the week: stake grows and moves.
    expect(demo.days[0]!.positions).not.toEqual(demo.days[5]!.positions);
  });

  it('Alpha shares × TotalHotkeyAlpha / TotalHotkeyShares give the same positions', async () => {
    const coldkey = truth.coldkeys[3]!;
    const day = coldkey.days[4]!;
    const state = await at(truth.days[4]!.last_block);
    for (const position of day.positions) {
      const shares = await read(
        state,
        'subtensorModule.alpha',
        position.hotkey,
        coldkey.coldkey,
        position.netuid,
      );
      const total = await read(state, 'subtensorModule.totalHotkeyAlpha', position.hotkey, position.netuid);
      const totalShares = await read(
        state,
        'subtensorModule.totalHotkeyShares',
        position.hotkey,
        position.netuid,
      );
      // U64F64 values decode as { bits: u128 }.
      const bits = (value: Codec) => BigInt(field(value, 'bits').toString());
      expect(((bits(shares) * BigInt(total.toString())) / bits(totalShares)).toString()).toBe(
        position.alpha_rao,
      );
    }
    const hotkeys = (await read(state, 'subtensorModule.stakingHotkeys', coldkey.coldkey)) as Vec<Codec>;
    expect(new Set(hotkeys.map((h) => h.toString()))).toEqual(new Set(day.positions.map((p) => p.hotkey)));
  });

  it('get_all_dynamic_info lists every live subnet with its name and reserves', async () => {
    const day = truth.days[3]!;
    const state = await at(day.last_block);
    const infos = (await runtimeCall(state, 'subnetInfoRuntimeApi.getAllDynamicInfo')()) as Vec<Codec>;
    const live = infos.map(unwrap).filter((i): i is Codec => i !== null);
    const prices = truth.panel_prices.filter((p) => p.date === day.date);
    const netuidOf = (info: Codec) => Number(field(info, 'netuid').toString());
    expect(live.map(netuidOf)).toEqual(prices.map((p) => p.netuid));
    for (const info of live) {
      const price = prices.find((p) => p.netuid === netuidOf(info))!;
      expect(field(info, 'taoIn').toString()).toBe(price.subnet_tao_rao ?? '0');
      const subnet = truth.subnets.find(
        (s) => s.netuid === price.netuid && s.registered_at === price.registered_at,
      )!;
      const name = (field(info, 'subnetName') as Vec<Codec>).map((c) => Number(c.toString()));
      expect(new TextDecoder().decode(new Uint8Array(name))).toBe(subnet.name);
    }
  });
});

describe('subscriptions', () => {
  it('emits new and finalized heads as the clock produces blocks', async () => {
    const head = devnet.head();
    const heads: number[] = [];
    const finalized: number[] = [];
    const stopHeads = await api.rpc.chain.subscribeNewHeads((h: Header) => {
      heads.push(h.number.toNumber());
    });
    const stopFinalized = await api.rpc.chain.subscribeFinalizedHeads((h: Header) => {
      finalized.push(h.number.toNumber());
    });
    await until(() => heads.length > 0 && finalized.length > 0);
    expect(heads[0]).toBe(head);
    expect(finalized[0]).toBe(head - OPTIONS.finalityLag);
    clock += 2 * OPTIONS.blockTimeMs;
    await until(() => heads.includes(head + 2) && finalized.includes(head));
    expect(heads).toEqual([head, head + 1, head + 2]);
    expect(finalized).toEqual([head - 2, head - 1, head]);
    stopHeads();
    stopFinalized();
  });

  it('state_subscribeStorage emits the new Timestamp.Now each block', async () => {
    const seen: bigint[] = [];
    const subscribe = storage(api as unknown as Decorated, 'timestamp.now') as unknown as (
      callback: (now: Codec) => void,
    ) => Promise<() => void>;
    const unsubscribe = await subscribe((now) => {
      seen.push(BigInt(now.toString()));
    });
    await until(() => seen.length === 1);
    clock += OPTIONS.blockTimeMs;
    await until(() => seen.length === 2);
    expect(seen[1]! - seen[0]!).toBe(BigInt(OPTIONS.blockTimeMs));
    unsubscribe();
  });
});

/** Bytes as text (toPrimitive() shows non-ASCII bytes as hex). */
function utf8(bytes: Codec): string {
  return new TextDecoder().decode(bytes.toU8a(true));
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
