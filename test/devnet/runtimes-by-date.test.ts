/**
 * The sandbox runs, on each block's UTC date, the runtime mainnet ran that day (from dTAO's launch on), and
 * serves the real metadata blob of every runtime one exists for (233, 315, 320, 343, 393).
 */
import { readFileSync } from 'node:fs';
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import { Metadata, TypeRegistry } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { compactFromU8a, hexToU8a } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { classifyBlock } from '../../pipeline/chain/classify-events.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  defaultDevnetOptions,
  type RunningDevnet,
  resolveWorldParams,
  startDevnet,
  type Truth,
} from '../../pipeline/devnet/index.js';
import { DATED_NOW_MS, DATED_OPTIONS } from './dated-world.js';
import { field, runtimeCall } from './decorated.js';

let devnet: RunningDevnet;
let rpc: RpcClient;
let reader: ChainReader;
let api: ApiPromise;
/** The dated world's truth over tax year 2025/26. */
let year: Truth;

beforeAll(async () => {
  devnet = await startDevnet(DATED_OPTIONS);
  rpc = await connectRpc({ url: devnet.url });
  reader = new ChainReader(rpc);
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
  year = buildTruth(DATED_OPTIONS, '2025-04-06', '2026-04-05');
}, 180_000);

afterAll(async () => {
  await api?.disconnect();
  await rpc?.close();
  await devnet?.stop();
});

/** The first block of a UTC date in the dated world (ten-minute blocks from midnight of genesis). */
const blockOn = (date: string, hour = 12) =>
  (Date.parse(`${date}T00:00:00Z`) - DATED_OPTIONS.genesis!.getTime()) / 600_000 + hour * 6;

/** What mainnet ran on the date (its spec_version there, per the subtensor README's dates). */
const MAINNET: Array<[string, number]> = [
  ['2025-02-20', 233],
  ['2025-04-06', 257], // tax year 2025/26 begins: spec 258, which the readers cannot tell from 257
  ['2025-05-01', 257],
  ['2025-06-30', 283],
  ['2025-07-10', 285],
  ['2025-08-01', 297],
  ['2025-09-10', 315],
  ['2025-10-15', 320],
  ['2025-11-05', 334],
  ['2026-01-15', 343],
  ['2026-04-05', 393],
  ['2026-08-01', 425],
  ['2026-11-01', 473],
];

function realBlob(file: string): Uint8Array {
  const path = new URL(`../../pipeline/devnet/metadata/${file}`, import.meta.url);
  if (file.endsWith('.scale')) return new Uint8Array(readFileSync(path));
  const wrapped = hexToU8a(readFileSync(path, 'utf8').trim());
  const [offset, length] = compactFromU8a(wrapped.subarray(1));
  return wrapped.subarray(1 + offset, 1 + offset + length.toNumber());
}

function outline(bytes: Uint8Array) {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, bytes);
  registry.setMetadata(metadata, undefined, SUBTENSOR_SIGNED_EXTENSIONS);
  const latest = metadata.asLatest;
  const pallets = latest.pallets.map((p) => ({
    name: p.name.toString(),
    index: p.index.toNumber(),
    storage: p.storage.isSome ? p.storage.unwrap().items.map((i) => i.name.toString()) : [],
    events: p.events.isSome
      ? registry.lookup
          .getSiType(p.events.unwrap().type)
          .def.asVariant.variants.map((v) => `${v.index.toNumber()} ${v.name.toString()}/${v.fields.length}`)
      : [],
  }));
  const apis = latest.apis.flatMap((a) => a.methods.map((m) => `${a.name.toString()}_${m.name.toString()}`));
  const system = latest.pallets.find((p) => p.name.toString() === 'System')!;
  const version = system.constants.find((c) => c.name.toString() === 'Version')!.value.toHex();
  return { pallets, apis, version };
}

describe('runtimes placed by date', () => {
  it('each block runs what mainnet ran on its UTC date, whatever the history length', async () => {
    for (const [date, spec] of MAINNET) {
      const hash = await reader.blockHash(blockOn(date));
      const version = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
      expect({ date, spec: version.specVersion }).toEqual({ date, spec });
    }
    // The same date in a shorter history of the same day runs the same runtime.
    const shorter = resolveWorldParams(
      { ...DATED_OPTIONS, genesis: new Date('2025-04-20T00:00:00Z') },
      DATED_NOW_MS,
    );
    expect(shorter.runtimePlacement).toBe('dates');
    const block = (Date.parse('2025-05-01T12:00:00Z') - Date.parse('2025-04-20T00:00:00Z')) / 600_000;
    const step = [...shorter.runtimeSchedule].reverse().find((s) => s.fromBlock <= block)!;
    expect(step.spec).toBe(257);
  }, 240_000); // every runtime's metadata is built on first use

  it("an upgrade's set_code is in the last block of the day before: the whole date runs one runtime", async () => {
    const first = blockOn('2025-06-30', 0);
    const before = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [
      await reader.blockHash(first - 2),
    ]);
    const codeBlock = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [
      await reader.blockHash(first - 1),
    ]);
    expect([before.specVersion, codeBlock.specVersion]).toEqual([257, 283]);
    const codec = await reader.codecOfBlock(first - 1);
    const { events } = await reader.eventsAndTime(await reader.blockHash(first - 1));
    // The block's own events are decoded with the runtime that ran it (257), the code update among them.
    expect(codec.specVersion).toBe(257);
    expect(codec.decodeEvents(events).map((e) => `${e.pallet}.${e.name}`)).toContain('System.CodeUpdated');
  });

  it("serves the real blob of 233, 315, 320, 343 and 393 at a block of each one's era", async () => {
    const blobs: Array<[string, string]> = [
      ['2025-03-01', 'finney-spec233-v15.hex'],
      ['2025-09-15', 'finney-spec315-v15.hex'],
      ['2025-10-01', 'finney-spec320-v15.hex'],
      ['2025-12-01', 'finney-spec343-v15.hex'],
      ['2026-05-01', 'finney-spec393-v16.scale'],
    ];
    for (const [date, file] of blobs) {
      const served = hexToU8a(
        await rpc.send<string>('state_getMetadata', [await reader.blockHash(blockOn(date))]),
      );
      const real = outline(realBlob(file));
      const got = outline(served);
      expect(got.version).toBe(real.version);
      expect(got.apis).toEqual(real.apis);
      // Every pallet, storage item and event of the blob, at its index; the sandbox adds one storage item.
      expect(
        got.pallets.map((p) => ({ ...p, storage: p.storage.filter((s) => s !== 'SubnetEmissionEnabled') })),
      ).toEqual(real.pallets);
    }
  });

  it("`devnet truth` lists the runtimes by date: a 620-day history from April 2025 on runs mainnet's", () => {
    const truth = buildTruth(
      { ...defaultDevnetOptions, seed: 'demo', historyDays: 620, now: () => DATED_NOW_MS },
      '2026-11-26',
      '2026-11-26',
    );
    expect(truth.runtime_placement).toBe('dates');
    const firstDates = truth.runtimes.map((r) => [r.spec, r.first_time.slice(0, 10)]);
    expect(firstDates).toEqual([
      [233, '2025-03-17'],
      [257, '2025-03-28'],
      [283, '2025-06-30'],
      [285, '2025-07-01'],
      [297, '2025-07-23'],
      [315, '2025-09-09'],
      [320, '2025-09-24'],
      [334, '2025-11-04'],
      [343, '2025-11-07'],
      [393, '2026-03-25'],
      [425, '2026-06-30'],
      [473, '2026-10-05'],
    ]);
    expect(truth.runtimes.find((r) => r.spec === 283)!.features).toContain('swapPallet');
    expect(truth.runtimes.find((r) => r.spec === 257)!.features).not.toContain('swapPallet');
  });

  it('a short history keeps the compressed 343 → 393 → 425 → 473', () => {
    const params = resolveWorldParams({ ...defaultDevnetOptions, historyDays: 35 }, DATED_NOW_MS);
    expect(params.runtimePlacement).toBe('compressed');
    expect(params.runtimeSchedule.map((s) => s.spec)).toEqual([343, 393, 425, 473]);
  });

  it('a compressed world has no 2025/26 life and its root pools keep growing after spec 343', () => {
    const truth = buildTruth(
      { ...defaultDevnetOptions, seed: 'dated', historyDays: 35, now: () => DATED_NOW_MS },
      '2026-10-25',
      '2026-11-26',
    );
    expect(truth.runtime_placement).toBe('compressed');
    // Its demo life is spec 425's and 473's alone.
    expect(truth.actions.length).toBeGreaterThan(0);
    expect(truth.actions.filter((a) => a.block < truth.current_runtime_block!)).toEqual([]);
    const root = (date: string) =>
      truth.share_pools
        .filter((p) => p.netuid === 0 && p.date === date)
        .map((p) => BigInt(p.total_alpha_rao));
    const first = root('2026-10-25');
    const last = root('2026-10-27');
    expect(first.length).toBeGreaterThan(0);
    expect(last.every((alpha, i) => alpha > first[i]!)).toBe(true);
  });
});

/** The demo coldkey's 2025/26 life (world/dated-life.ts): each step on the runtime mainnet ran its date. */
/** Lease dividends from spec 361 on (`subnets/leasing.rs`): alpha moved from the lease's coldkey, announced. */
/** The life's steps the demo coldkey signs itself, each paying a transaction fee from its free TAO. */
const SIGNED_STEPS = new Set(['liquidity-add', 'liquidity-remove', 'crowdloan-contribution']);

const LEASE_DIVIDEND_EVENTS = [
  'SubtensorModule.StakeRemoved',
  'SubtensorModule.StakeAdded',
  'SubtensorModule.SubnetLeaseDividendsDistributed',
];

describe('the demo coldkey in 2025/26, on the runtimes of its dates', () => {
  const LIFE: Array<[string, string, number, string[], boolean]> = [
    // action, UTC date, spec served, events in order, epoch (phase Initialization)
    ['recycle', '2025-05-14', 257, ['SubtensorModule.AlphaRecycled'], false],
    ['hotkey-swap', '2025-08-12', 297, ['SubtensorModule.HotkeySwapped'], false],
    ['crowdloan-contribution', '2025-08-20', 297, ['Balances.Transfer', 'Crowdloan.Contributed'], false],
    ['crowdloan-contribution', '2025-09-02', 297, ['Balances.Transfer', 'Crowdloan.Contributed'], false],
    ['network-registration', '2025-09-03', 297, ['Balances.Withdraw', 'SubtensorModule.NetworkAdded'], false],
    ['identity-set', '2025-09-10', 315, ['Registry.IdentitySet'], false],
    ['crowdloan-refund', '2025-09-16', 315, ['Balances.Transfer', 'Crowdloan.AllRefunded'], false],
    ['auto-stake', '2025-10-01', 320, ['SubtensorModule.AutoStakeAdded'], true],
    ['multisig-deposit', '2025-10-14', 320, ['Balances.Reserved', 'Multisig.NewMultisig'], false],
    ['liquidity-add', '2025-10-15', 320, ['Balances.Withdraw', 'Swap.LiquidityAdded'], false],
    ['multisig-executed', '2025-10-16', 320, ['Balances.Unreserved', 'Multisig.MultisigExecuted'], false],
    ['identity-cleared', '2025-11-05', 334, ['Registry.IdentityDissolved'], false],
    ['network-lock-refund', '2025-11-12', 343, ['Balances.Deposit', 'SubtensorModule.NetworkRemoved'], false],
    ['liquidity-remove', '2025-11-20', 343, ['Balances.Deposit', 'Swap.LiquidityRemoved'], false],
    ['liquidity-add', '2025-11-27', 343, ['Balances.Withdraw', 'Swap.LiquidityAdded'], false],
    ['liquidity-refund', '2025-12-05', 343, ['Swap.UserLiquidityToggled', 'Balances.Deposit'], false],
    ['root-claim', '2025-12-10', 343, ['SubtensorModule.RootClaimed'], false],
    ['dissolution', '2026-01-20', 343, ['Balances.Deposit', 'SubtensorModule.NetworkRemoved'], false],
    ['root-claim', '2026-02-18', 343, ['SubtensorModule.RootClaimed'], false],
    ['lease-dividends', '2026-03-28', 393, LEASE_DIVIDEND_EVENTS, true],
    ['lease-dividends', '2026-04-02', 393, LEASE_DIVIDEND_EVENTS, true],
  ];

  it('the truth lists the life, and each step is on the chain with the events of its runtime', async () => {
    expect(year.actions.map((a) => [a.action, a.time.slice(0, 10)])).toEqual(
      LIFE.map(([action, date]) => [action, date]),
    );
    for (const [i, [action, , spec, names, epoch]] of LIFE.entries()) {
      const row = year.actions[i]!;
      const codec = await reader.codecOfBlock(row.block);
      expect({ action, spec: codec.specVersion }).toEqual({ action, spec });
      const { events } = await reader.eventsAndTime(await reader.blockHash(row.block));
      const decoded = codec.decodeEvents(events);
      const own = row.events.map((e) => decoded[e.event_index]!);
      expect(own.map((e) => `${e.pallet}.${e.name}`)).toEqual(names);
      for (const event of own) expect(event.extrinsicIndex === null, action).toBe(epoch);
      if (!epoch) expect(own[0]!.extrinsicIndex).toBe(row.extrinsic_index);
      const last = own.at(-1)!;
      if (action === 'root-claim') expect(last.fields[0]!.toString()).toBe(devnet.demoColdkey);
      if (action === 'recycle') expect(last.fields[2]!.toString()).toBe(row.alpha_rao);
      if (action === 'auto-stake') {
        // AutoStakeAdded { netuid, destination, hotkey (the miner), owner, incentive }
        expect(last.fields[0]!.toString()).toBe(String(row.netuid));
        expect(last.fields[3]!.toString()).toBe(devnet.demoColdkey);
        expect(last.fields[4]!.toString()).toBe(row.alpha_rao);
      }
      if (action === 'network-registration' || action === 'network-lock-refund') {
        // The lock withdrawn from, or the refund credited to, the demo (world/network-lock.ts); its netuid.
        expect([own[0]!.fields[0]!.toString(), own[0]!.fields[1]!.toString()]).toEqual([
          devnet.demoColdkey,
          row.tao_rao,
        ]);
        expect(last.fields[0]!.toString()).toBe(String(row.netuid));
      }
      if (action === 'dissolution') {
        // Each holder credited by `Balances.Deposit { who, amount }` (no transfer from the subnet's account).
        expect(own[0]!.fields[0]!.toString()).toBe(devnet.demoColdkey);
        expect(own[0]!.fields[1]!.toString()).toBe(row.payouts![0]!.tao_rao);
        expect(last.fields[0]!.toString()).toBe(String(row.netuid));
      }
      if (action === 'liquidity-add' || action === 'liquidity-remove') {
        // { coldkey, hotkey, netuid, position_id, liquidity, tao, alpha, (fee_tao, fee_alpha,) ticks }
        const lp = row.liquidity!;
        expect(last.fields[0]!.toString()).toBe(devnet.demoColdkey);
        expect(last.fields[2]!.toString()).toBe(String(row.netuid));
        expect(last.fields[3]!.toString()).toBe(String(lp.position_id));
        expect(last.fields[5]!.toString()).toBe(lp.tao_rao);
        expect(last.fields[6]!.toString()).toBe(lp.alpha_rao);
        if (action === 'liquidity-remove') {
          expect(last.fields[7]!.toString()).toBe(lp.fee_tao_rao);
          expect(BigInt(lp.fee_tao_rao)).toBeGreaterThan(0n);
        }
      }
      if (action === 'liquidity-refund') {
        // disable_lp: the toggle names the subnet, the deposit the coldkey; nothing names the position.
        expect(own[0]!.fields.map(String)).toEqual([String(row.netuid), 'false']);
        expect(last.fields.map(String)).toEqual([devnet.demoColdkey, row.tao_rao]);
      }
      if (action === 'crowdloan-contribution') {
        expect(last.fields.map(String)).toEqual([String(row.crowdloan_id), devnet.demoColdkey, row.tao_rao]);
      }
      if (action === 'lease-dividends') {
        expect(last.fields[1]!.toString()).toBe(devnet.demoColdkey);
        expect(last.fields[2]!.toString()).toBe(row.alpha_rao);
      }
    }
  }, 240_000);

  it('the collector keeps every liquidity, crowdloan and lease step as a staking event of the demo coldkey', async () => {
    const expected: Record<string, string[]> = {
      'liquidity-add': ['LiquidityAdded'],
      'liquidity-remove': ['LiquidityRemoved'],
      'liquidity-refund': ['LiquidityRefunded'],
      'crowdloan-contribution': ['Transfer', 'CrowdloanContributed'],
      'crowdloan-refund': ['Transfer'],
      'lease-dividends': ['StakeAdded', 'SubnetLeaseDividendsDistributed'],
    };
    const rows = year.actions.filter((a) => a.action in expected);
    expect(rows.length).toBe(9);
    for (const row of rows) {
      const hash = await reader.blockHash(row.block);
      const codec = await reader.codecOfBlock(row.block);
      const { events, timeMs } = await reader.eventsAndTime(hash);
      const { staking } = classifyBlock({
        number: row.block,
        hash,
        timeMs,
        codec,
        events: codec.decodeEvents(events),
      });
      const all = staking.filter(
        (e) => e.coldkey === devnet.demoColdkey || e.detail?.['to'] === devnet.demoColdkey,
      );
      // The demo's own calls pay a transaction fee, kept beside the call's events; the refunds and the
      // dividends are signed by others (or by nobody) and pay none of the demo's.
      const paid = all.filter((e) => e.kind === 'TransactionFeePaid');
      expect(paid.length, row.action).toBe(SIGNED_STEPS.has(row.action) ? 1 : 0);
      const mine = all.filter((e) => e.kind !== 'TransactionFeePaid');
      expect(
        mine.map((e) => e.kind),
        row.action,
      ).toEqual(expected[row.action]);
      const named = mine.at(-1)!;
      if (row.action === 'liquidity-refund') {
        expect({ netuid: named.netuid, tao: named.taoRao }).toEqual({
          netuid: row.netuid,
          tao: BigInt(row.tao_rao),
        });
      }
      if (row.action === 'liquidity-remove') {
        expect(named.detail).toMatchObject({
          position_id: String(row.liquidity!.position_id),
          fee_tao_rao: row.liquidity!.fee_tao_rao,
          fee_alpha_rao: row.liquidity!.fee_alpha_rao,
        });
      }
      if (row.action === 'crowdloan-contribution')
        expect(mine[0]!.detail?.['to_crowdloan']).toBe(row.crowdloan_id);
      if (row.action === 'crowdloan-refund') expect(named.detail?.['from_crowdloan']).toBe(row.crowdloan_id);
    }
  }, 240_000);

  it("each step changes the demo coldkey's stake on the chain as the truth says", async () => {
    const demo = year.coldkeys.find((c) => c.demo)!;
    const stakeAt = async (block: number) => {
      const state = await api.at(await api.rpc.chain.getBlockHash(block));
      const info = (await runtimeCall(
        state,
        'stakeInfoRuntimeApi.getStakeInfoForColdkey',
      )(demo.coldkey)) as Vec<Codec>;
      return info.map((p) => ({
        hotkey: field(p, 'hotkey').toString(),
        netuid: Number(field(p, 'netuid').toString()),
        alpha_rao: field(p, 'stake').toString(),
      }));
    };
    for (const row of year.actions) {
      const date = row.time.slice(0, 10);
      const day = demo.days.find((d) => d.date === date)!;
      const dayEnd = year.days.find((d) => d.date === date)!.last_block;
      expect(await stakeAt(dayEnd), `${row.action} ${date}`).toEqual(day.positions);
      const before = await stakeAt(row.block - 1);
      const after = await stakeAt(row.block);
      const of = (list: typeof before, netuid: number | null, hotkey?: string | null) =>
        list.filter((p) => p.netuid === netuid && (hotkey === undefined || p.hotkey === hotkey));
      if (row.action === 'recycle' || row.action === 'auto-stake' || row.action === 'root-claim') {
        const was = BigInt(of(before, row.netuid, row.hotkey)[0]?.alpha_rao ?? '0');
        const is = BigInt(of(after, row.netuid, row.hotkey)[0]!.alpha_rao);
        const change = row.action === 'recycle' ? was - is : is - was;
        // Shares round by a rao at most.
        expect(change - BigInt(row.alpha_rao!), row.action).toBeGreaterThanOrEqual(-1n);
        expect(change - BigInt(row.alpha_rao!), row.action).toBeLessThanOrEqual(1n);
      }
      if (row.action === 'hotkey-swap') {
        const old = before.filter((p) => p.hotkey === row.hotkey);
        expect(old.length).toBe(1);
        expect(after.filter((p) => p.hotkey === row.hotkey)).toEqual([]);
        expect(after.filter((p) => p.hotkey === row.destination_hotkey)).toEqual(
          old.map((p) => ({ ...p, hotkey: row.destination_hotkey })),
        );
      }
      const free = async (block: number) => {
        const state = await api.at(await api.rpc.chain.getBlockHash(block));
        const account = await state.query.system!.account!(demo.coldkey);
        return BigInt(field(field(account, 'data'), 'free').toString());
      };
      // The free balance's change less the transaction fee the demo paid for its own call in the block.
      const feePaid = async () => {
        const state = await api.at(await api.rpc.chain.getBlockHash(row.block));
        const records = (await state.query.system!.events!()) as unknown as {
          event: { section: string; method: string; data: Codec[] };
        }[];
        return records
          .filter(
            ({ event }) => event.section === 'transactionPayment' && event.method === 'TransactionFeePaid',
          )
          .filter(({ event }) => event.data[0]!.toString() === demo.coldkey)
          .reduce((sum, { event }) => sum + BigInt(event.data[1]!.toString()), 0n);
      };
      const freeChange = async () =>
        (await free(row.block)) -
        (await free(row.block - 1)) +
        (SIGNED_STEPS.has(row.action) ? await feePaid() : 0n);
      const alphaChange = () =>
        BigInt(of(after, row.netuid, row.hotkey)[0]?.alpha_rao ?? '0') -
        BigInt(of(before, row.netuid, row.hotkey)[0]?.alpha_rao ?? '0');
      const near = (value: bigint, expected: bigint) => {
        // Shares round by a rao at most.
        expect(value - expected, row.action).toBeGreaterThanOrEqual(-1n);
        expect(value - expected, row.action).toBeLessThanOrEqual(1n);
      };
      if (row.action === 'liquidity-add') {
        expect(await freeChange()).toBe(-BigInt(row.tao_rao));
        near(alphaChange(), -BigInt(row.alpha_rao!));
      }
      if (row.action === 'liquidity-remove' || row.action === 'liquidity-refund') {
        // Remove: principal and fees; refund (disable_lp): the TAO principal only, the alpha with its fees.
        const lp = row.liquidity!;
        const taoFees = row.action === 'liquidity-remove' ? BigInt(lp.fee_tao_rao) : 0n;
        expect(await freeChange()).toBe(BigInt(lp.tao_rao) + taoFees);
        near(alphaChange(), BigInt(lp.alpha_rao) + BigInt(lp.fee_alpha_rao));
      }
      if (row.action === 'crowdloan-contribution') expect(await freeChange()).toBe(-BigInt(row.tao_rao));
      if (row.action === 'crowdloan-refund') expect(await freeChange()).toBe(BigInt(row.tao_rao));
      if (row.action === 'lease-dividends') near(alphaChange(), BigInt(row.alpha_rao!));
      if (row.action === 'dissolution') {
        expect(of(before, row.netuid).length).toBeGreaterThan(0);
        expect(of(after, row.netuid)).toEqual([]);
        expect((await free(row.block)) - (await free(row.block - 1))).toBe(BigInt(row.payouts![0]!.tao_rao));
      }
    }
  }, 300_000);

  it('root dividends: the root pools grow until spec 334, then root claims pay them as alpha on subnets', () => {
    const root = (date: string) =>
      year.share_pools.filter((p) => p.netuid === 0 && p.date === date).map((p) => BigInt(p.total_alpha_rao));
    const growing = [root('2025-10-20'), root('2025-11-03')];
    expect(growing[0]!.length).toBeGreaterThan(0);
    expect(growing[1]!.every((alpha, i) => alpha > growing[0]![i]!)).toBe(true);
    // From 4 November 2025 (spec 334) nothing but the coldkeys' own root stakes changes a root pool; the
    // demo coldkey's root position does not grow between its own actions.
    const demo = year.coldkeys.find((c) => c.demo)!;
    const rootIncome = (from: string, to: string) =>
      demo.days
        .filter((d) => d.date >= from && d.date <= to)
        .flatMap((d) => d.income.filter((p) => p.netuid === 0))
        .reduce((sum, p) => sum + BigInt(p.alpha_rao), 0n);
    expect(rootIncome('2025-04-06', '2025-11-03')).toBeGreaterThan(0n);
    expect(rootIncome('2025-11-04', '2026-04-05')).toBe(0n);
    const claims = year.actions.filter((a) => a.action === 'root-claim');
    expect(claims.every((c) => c.netuid !== 0 && BigInt(c.alpha_rao!) > 0n)).toBe(true);
  });

  it("stakes, unstakes, moves and swaps before and after the swap pallet (30 June 2025), at each side's fee", () => {
    const demo = year.coldkeys.find((c) => c.demo)!.coldkey;
    const rows = year.staking_events.map((e, i) => ({ ...e, fee: year.staking_details[i]!.fee_rao }));
    const mine = rows.filter((e) => e.coldkey === demo);
    for (const before of [true, false]) {
      const side = mine.filter((e) => e.time < '2025-06-30' === before);
      for (const kind of ['StakeAdded', 'StakeRemoved', 'StakeMoved', 'StakeSwapped'])
        expect(
          side.some((e) => e.kind === kind),
          `${kind} ${before ? 'before' : 'after'}`,
        ).toBe(true);
    }
    // The flat 50,000-rao fee before the swap pallet; a share of the amount after it.
    const stakes = mine.filter((e) => e.kind === 'StakeAdded');
    const early = stakes.filter((e) => e.time < '2025-06-30');
    expect(early.every((e) => e.fee === '50000')).toBe(true);
    expect(stakes.filter((e) => e.time >= '2025-07-23').every((e) => e.fee !== '50000')).toBe(true);
  });

  it('from spec 285 no coldkey takes stake out of a position in the block it staked into it (the rate limiter)', () => {
    // Hour-long blocks, as the dated pack's world: long enough that the draws would do it once after 285.
    const truth = buildTruth(
      {
        ...defaultDevnetOptions,
        genesis: new Date('2025-04-04T00:00:00Z'),
        historyDays: 602,
        blockTimeMs: 3_600_000,
        now: () => DATED_NOW_MS,
      },
      '2025-07-01',
      '2026-11-26',
    );
    const marked = new Set<string>();
    const refused: string[] = [];
    for (const [i, e] of truth.staking_events.entries()) {
      const detail = truth.staking_details[i]!;
      const key = (coldkey: string | null, hotkey: string | null, netuid: number | null) =>
        `${e.block}|${coldkey}|${hotkey}|${netuid}`;
      const takesOut = ['StakeRemoved', 'StakeMoved', 'StakeSwapped', 'StakeTransferred'].includes(e.kind);
      // Spec 473's migration unstakes outside any extrinsic: no call, no limit.
      if (takesOut && e.extrinsic_index !== null && marked.has(key(e.coldkey, e.hotkey, e.netuid)))
        refused.push(`${e.time} ${e.kind} ${e.netuid}`);
      if (e.kind === 'StakeAdded') marked.add(key(e.coldkey, e.hotkey, e.netuid));
      if (e.kind === 'StakeMoved' || e.kind === 'StakeSwapped')
        marked.add(key(e.coldkey, detail.destination_hotkey, detail.destination_netuid));
    }
    expect(truth.staking_events.length).toBeGreaterThan(1_000);
    expect(refused).toEqual([]);
  });
});

describe("the life's positions and contributions in the chain's storage", () => {
  it('Swap.Positions holds each open position, and Crowdloan.Contributions each contribution not refunded', async () => {
    const demo = devnet.demoColdkey;
    const at = async (block: number) => api.at(await api.rpc.chain.getBlockHash(block));
    const positions = async (block: number) =>
      ((await (await at(block)).query.swap!.positions!.entries()) as Array<[{ args: Codec[] }, Codec]>).map(
        ([key, value]) => ({
          netuid: Number(key.args[0]!.toString()),
          coldkey: key.args[1]!.toString(),
          id: Number(key.args[2]!.toString()),
          // An optional map's value comes as Option<Position>.
          liquidity: field(
            'unwrap' in value ? (value as unknown as { unwrap(): Codec }).unwrap() : value,
            'liquidity',
          ).toString(),
        }),
      );
    // An optional map: an absent entry is None (its text empty).
    const contribution = async (block: number, id: number) =>
      ((await (await at(block)).query.crowdloan!.contributions!(id, demo)) as Codec).toString() || null;
    const lp = year.actions.filter((a) => a.action.startsWith('liquidity-'));
    const [add1, remove1, add2, refund2] = lp;
    const open = (row: (typeof lp)[number]) => ({
      netuid: row.netuid,
      coldkey: demo,
      id: row.liquidity!.position_id,
      liquidity: row.liquidity!.liquidity,
    });
    expect(await positions(add1!.block - 1)).toEqual([]);
    expect(await positions(add1!.block)).toEqual([open(add1!)]);
    expect(await positions(remove1!.block)).toEqual([]);
    expect(await positions(add2!.block)).toEqual([open(add2!)]);
    // disable_lp closed it: gone from the map, though no swap event named it.
    expect(await positions(refund2!.block)).toEqual([]);
    const [leased, refunded] = year.actions.filter((a) => a.action === 'crowdloan-contribution');
    const refund = year.actions.find((a) => a.action === 'crowdloan-refund')!;
    expect(await contribution(leased!.block - 1, 1)).toBeNull();
    expect(await contribution(refund.block - 1, 2)).toBe(refunded!.tao_rao);
    expect(await contribution(refund.block, 2)).toBeNull();
    expect(await contribution(refund.block, 1)).toBe(leased!.tao_rao);
  }, 240_000);
});

describe('a lease dividend before spec 361, credited with no event (option untoldLeaseDividend)', () => {
  it('reaches the free balance by a Balances.Deposit that the collector keeps nothing of', async () => {
    const options = { ...DATED_OPTIONS, untoldLeaseDividend: true };
    const truth = buildTruth(options, '2025-10-19', '2025-10-21');
    const credited = truth.actions.filter((a) => a.action === 'lease-dividends-credited');
    expect(credited.map((a) => [a.time.slice(0, 10), a.extrinsic_index])).toEqual([['2025-10-20', null]]);
    const row = credited[0]!;
    expect(BigInt(row.tao_rao)).toBeGreaterThan(0n);
    // The default world has no such credit.
    expect(buildTruth(DATED_OPTIONS, '2025-10-19', '2025-10-21').actions).toEqual(
      truth.actions.filter((a) => a.action !== 'lease-dividends-credited'),
    );
    const variant = await startDevnet(options);
    const client = await connectRpc({ url: variant.url });
    try {
      const chain = new ChainReader(client);
      const hash = await chain.blockHash(row.block);
      const codec = await chain.codecOfBlock(row.block);
      expect(codec.specVersion).toBe(320);
      const { events, timeMs } = await chain.eventsAndTime(hash);
      const decoded = codec.decodeEvents(events);
      const own = row.events.map((e) => decoded[e.event_index]!);
      expect(own.map((e) => `${e.pallet}.${e.name}`)).toEqual([
        'SubtensorModule.StakeRemoved',
        'Balances.Deposit',
      ]);
      expect(own[1]!.fields.map(String)).toEqual([variant.demoColdkey, row.tao_rao]);
      const { staking } = classifyBlock({ number: row.block, hash, timeMs, codec, events: decoded });
      expect(
        staking.filter((e) => e.coldkey === variant.demoColdkey || e.detail?.['to'] === variant.demoColdkey),
      ).toEqual([]);
    } finally {
      await client.close();
      await variant.stop();
    }
  }, 240_000);
});
