/**
 * The sandbox's spec 473 (mainnet since October 2026) through the real @polkadot/api over a real WebSocket:
 * no V1 share maps in its metadata, the AlphaV2 migration and its dust sweep over the blocks after the
 * upgrade (phase Finalization, no extrinsic), zero-stake positions in `get_stake_info_for_coldkey`, and the
 * income that the sweep is not. Every figure is compared with the world's ground truth (`buildTruth`).
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { AccountId32, EventRecord } from '@polkadot/types/interfaces';
import type { Codec } from '@polkadot/types/types';
import { u8aToHex } from '@polkadot/util';
import { decodeAddress, xxhashAsHex } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  resolveWorldParams,
  startDevnet,
  type Truth,
  World,
} from '../../pipeline/devnet/index.js';
import { type Decorated, events, read, runtimeCall } from './decorated.js';

const GENESIS = new Date('2026-05-01T00:00:00Z');
const DAY = 86_400_000;
const BLOCKS_PER_DAY = 7_200;
const SPEC_425_FROM = 6 * BLOCKS_PER_DAY + 3_600; // noon of day 6
const SPEC_473_FROM = 12 * BLOCKS_PER_DAY + 3_600; // noon of day 12: after the dissolution, before the coldkey swap
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'latest-runtime-test',
  historyDays: 16,
  genesis: GENESIS,
  upgradeBlock: 3 * BLOCKS_PER_DAY + 3_600,
  spec425Block: SPEC_425_FROM,
  spec473Block: SPEC_473_FROM,
  now: () => GENESIS.getTime() + 16.5 * DAY,
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
  truth = buildTruth(OPTIONS, '2026-05-01', '2026-05-17');
}, 120_000);

afterAll(async () => {
  await api?.disconnect();
  await devnet?.stop();
});

async function hashOf(block: number): Promise<string> {
  return (await api.rpc.chain.getBlockHash(block)).toHex();
}

async function at(block: number): Promise<Decorated> {
  return api.at(await hashOf(block));
}

/** "modl" ++ the eight-byte PalletId ++ zeros; with a netuid, the subtensor sub-account of that subnet. */
function palletAccountHex(id: string, netuid?: number): string {
  const bytes = new Uint8Array(32);
  bytes.set(new TextEncoder().encode(`modl${id}`), 0);
  if (netuid !== undefined) {
    bytes[12] = netuid & 0xff;
    bytes[13] = netuid >> 8;
  }
  return u8aToHex(bytes);
}

const hexOf = (address: string) => u8aToHex(decodeAddress(address));
const accountHex = (codec: Codec) => (codec as AccountId32).toHex();
const big = (codec: Codec) => BigInt(codec.toString());
const demo = () => truth.coldkeys.find((c) => c.demo)!;
const successor = () => truth.coldkeys.find((c) => c.successor_of)!;
const nameOf = (record: EventRecord) =>
  `${record.event.section.charAt(0).toUpperCase()}${record.event.section.slice(1)}.${record.event.method}`;
const migration = () => truth.alpha_v2_migration!;
const prefixOf = (pallet: string, item: string) => xxhashAsHex(pallet, 128) + xxhashAsHex(item, 128).slice(2);

async function keysUnder(prefix: string, block: number): Promise<string[]> {
  const keys = await api.rpc.state.getKeysPaged(prefix, 1000, null, await hashOf(block));
  return keys.map((k) => k.toHex());
}

async function stakeRows(state: Decorated, coldkey: string) {
  return [
    ...((await runtimeCall(
      state,
      'stakeInfoRuntimeApi.getStakeInfoForColdkey',
    )(coldkey)) as unknown as Array<{
      hotkey: Codec;
      netuid: Codec;
      stake: Codec;
    }>),
  ].map((r) => [accountHex(r.hotkey), r.netuid.toString(), r.stake.toString()]);
}

describe('spec 473', () => {
  it('runs from its block with its set_code in the block before; spec 425 before that', async () => {
    const version = async (block: number) =>
      (await api.rpc.state.getRuntimeVersion(await hashOf(block))).specVersion.toNumber();
    expect(await version(SPEC_473_FROM - 2)).toBe(425);
    expect(await version(SPEC_473_FROM - 1)).toBe(473);
    expect(await version(SPEC_473_FROM + 5)).toBe(473);
    const setCode = await events(await at(SPEC_473_FROM - 1));
    expect(setCode.map(nameOf)).toContain('System.CodeUpdated');
    // api.at reads the version at the parent: the set_code block still decodes with 425.
    expect((await at(SPEC_473_FROM - 1)).runtimeVersion.specVersion.toNumber()).toBe(425);
    expect((await at(SPEC_473_FROM)).runtimeVersion.specVersion.toNumber()).toBe(473);
  });

  it('declares no V1 share maps, keeps the V2 ones, and appends NetworkRegistrationCancelled at 153', async () => {
    const before = await at(SPEC_473_FROM - 2);
    const after = await at(SPEC_473_FROM + 5);
    for (const item of ['alpha', 'totalHotkeyShares', 'alphaMapLastKey']) {
      expect(before.query.subtensorModule?.[item], item).toBeDefined();
      expect(after.query.subtensorModule?.[item], item).toBeUndefined();
    }
    expect(after.query.subtensorModule?.alphaV2).toBeDefined();
    expect(after.query.subtensorModule?.totalHotkeySharesV2).toBeDefined();
    const cancelled = after.events.subtensorModule?.NetworkRegistrationCancelled;
    expect(cancelled).toBeDefined();
    expect(cancelled!.meta.index.toNumber()).toBe(153);
    expect(cancelled!.meta.fields.map((f) => f.name.toString())).toEqual([
      'coldkey',
      'hotkey',
      'lock_id',
      'error',
    ]);
    const lookup = after.registry.lookup;
    expect(cancelled!.meta.fields.map((f) => lookup.getSiType(f.type).path.join('::'))).toEqual([
      'sp_core::crypto::AccountId32',
      'sp_core::crypto::AccountId32',
      '',
      'sp_runtime::DispatchError',
    ]);
    expect(lookup.getSiType(cancelled!.meta.fields[2]!.type).def.asPrimitive.toString()).toBe('U32');
    // Every event the sandbox emitted in 425 keeps its index in 473.
    for (const name of ['StakeAdded', 'StakeRemoved', 'TransactionFeePaidWithAlpha', 'ColdkeySwapped']) {
      expect(after.events.subtensorModule![name]!.meta.index.toNumber()).toBe(
        before.events.subtensorModule![name]!.meta.index.toNumber(),
      );
    }
  });

  it('the V1 rows stay under their raw keys until the migration drains them; then the prefixes are empty', async () => {
    expect(migration().first_block).toBe(SPEC_473_FROM);
    expect(migration().completed_block).toBeGreaterThan(SPEC_473_FROM);
    expect(migration().completed_block! - SPEC_473_FROM).toBeLessThan(60);
    expect(migration().deferred).toBe(0);
    const alpha = prefixOf('SubtensorModule', 'Alpha');
    const totalShares = prefixOf('SubtensorModule', 'TotalHotkeyShares');
    const v2 = prefixOf('SubtensorModule', 'AlphaV2');
    expect((await keysUnder(alpha, SPEC_473_FROM - 1)).length).toBeGreaterThan(20);
    const done = migration().completed_block!;
    expect(await keysUnder(alpha, done)).toEqual([]);
    expect(await keysUnder(totalShares, done)).toEqual([]);
    // `Alpha`'s prefix is not a prefix of `AlphaV2`'s: the V2 rows are all there.
    expect((await keysUnder(v2, done)).length).toBeGreaterThan(20);
    expect(await keysUnder(alpha, truth.days.at(-1)!.last_block)).toEqual([]);
  });
});

describe('the sweep', () => {
  it("settles the demo coldkey's dust and small legacy positions, and those of other holders, root too", () => {
    const sweep = truth.alpha_v2_sweep;
    const mine = sweep.filter((r) => r.coldkey === demo().coldkey && r.alpha_rao !== '0');
    expect(mine.filter((r) => r.kind === 'deleted' && r.legacy).length).toBeGreaterThanOrEqual(2);
    expect(mine.filter((r) => r.kind === 'unstaked' && r.legacy).length).toBeGreaterThanOrEqual(2);
    const others = new Set(sweep.filter((r) => r.coldkey !== demo().coldkey).map((r) => r.coldkey));
    expect(others.size).toBeGreaterThanOrEqual(3);
    expect(sweep.some((r) => r.netuid === 0 && r.kind === 'unstaked')).toBe(true);
    expect(sweep.some((r) => r.netuid === 0 && r.kind === 'deleted' && r.alpha_rao !== '0')).toBe(true);
    for (const row of sweep) {
      const tao = BigInt(row.tao_rao);
      if (row.kind === 'deleted') expect(tao).toBeLessThan(1_000n);
      else expect(tao >= 1_000n && tao <= 3_000_000n && row.legacy).toBe(true);
      expect(row.block >= migration().first_block && row.block <= migration().completed_block!).toBe(true);
    }
  });

  it('emits only in phase Finalization: an unstaked row is paid from its subnet account, then StakeRemoved with fee 0; the dust TAO goes to root and is burned', async () => {
    const blocks = [...new Set(truth.alpha_v2_sweep.map((r) => r.block))];
    let burns = 0n;
    for (const block of blocks) {
      const records = await events(await at(block));
      const finalization = records.filter((r) => r.phase.isFinalization);
      const rows = truth.alpha_v2_sweep.filter((r) => r.block === block);
      const expected: Array<[string, string, string, bigint]> = [];
      for (const row of rows) {
        if (row.kind === 'unstaked') {
          expected.push([
            'Balances.Transfer',
            palletAccountHex('subtensr', row.netuid),
            hexOf(row.coldkey),
            BigInt(row.tao_rao),
          ]);
          expected.push([
            'SubtensorModule.StakeRemoved',
            hexOf(row.coldkey),
            hexOf(row.hotkey),
            BigInt(row.tao_rao),
          ]);
          const removed = records[row.event_index!]!;
          expect(nameOf(removed)).toBe('SubtensorModule.StakeRemoved');
          const [, , , alpha, netuid, fee] = removed.event.data as unknown as Codec[];
          expect([big(alpha!), Number(netuid!.toString()), big(fee!)]).toEqual([
            BigInt(row.alpha_rao),
            row.netuid,
            0n,
          ]);
        } else if (row.netuid !== 0 && row.tao_rao !== '0') {
          expected.push([
            'Balances.Transfer',
            palletAccountHex('subtensr', row.netuid),
            palletAccountHex('subtensr', 0),
            BigInt(row.tao_rao),
          ]);
        }
      }
      const burned = rows.filter((r) => r.kind === 'deleted').reduce((a, r) => a + BigInt(r.tao_rao), 0n);
      if (burned > 0n) {
        expected.push([
          'Balances.Transfer',
          palletAccountHex('subtensr', 0),
          palletAccountHex('burntnsr'),
          burned,
        ]);
      }
      burns += burned;
      // Transfer (from, to, amount) and StakeRemoved (coldkey, hotkey, tao, …): the first three fields.
      const got = finalization.map((r) => {
        const [a, b, c] = r.event.data as unknown as Codec[];
        return [nameOf(r), accountHex(a!), accountHex(b!), big(c!)];
      });
      expect(got, `block ${block}`).toEqual(expected);
      // They close the block: nothing after them, and no ExtrinsicSuccess of theirs.
      if (finalization.length > 0) {
        expect(records.slice(-finalization.length).every((r) => r.phase.isFinalization)).toBe(true);
      }
    }
    expect(burns.toString()).toBe(migration().burned_rao);
  });

  it("the demo coldkey's free balance rises by exactly what the sweep paid it", async () => {
    const first = migration().first_block;
    const done = migration().completed_block!;
    const others = truth.actions.filter(
      (a) =>
        a.block >= first &&
        a.block <= done &&
        (a.coldkey === demo().coldkey || a.destination_coldkey === demo().coldkey),
    );
    expect(others).toEqual([]);
    const free = async (block: number) =>
      big(
        (
          (await read(await at(block), 'system.account', demo().coldkey)) as unknown as {
            data: { free: Codec };
          }
        ).data.free,
      );
    const paid = truth.alpha_v2_sweep
      .filter((r) => r.coldkey === demo().coldkey && r.kind === 'unstaked')
      .reduce((a, r) => a + BigInt(r.tao_rao), 0n);
    expect(paid).toBeGreaterThan(0n);
    expect((await free(done)) - (await free(first - 1))).toBe(paid);
  });

  it('the settled positions are gone from stake info; the rest read the same as before the migration', async () => {
    const before = await at(SPEC_473_FROM - 1);
    const after = await at(migration().completed_block!);
    for (const owner of [demo(), ...truth.coldkeys.filter((c) => !c.demo && !c.successor_of).slice(0, 12)]) {
      const settled = new Set(
        truth.alpha_v2_sweep
          .filter((r) => r.coldkey === owner.coldkey)
          .map((r) => `${hexOf(r.hotkey)}/${r.netuid}`),
      );
      const was = (await stakeRows(before, owner.coldkey)).filter(([h, n]) => !settled.has(`${h}/${n}`));
      const now = (await stakeRows(after, owner.coldkey)).filter(([, , stake]) => stake !== '0');
      for (const [h, n] of now) expect(settled.has(`${h}/${n}`), `${owner.coldkey} ${h}/${n}`).toBe(false);
      // The migration changes no other value: stake moves only by actions (none of these holders acts then).
      const acted = truth.actions.some(
        (a) =>
          a.block >= SPEC_473_FROM - 1 &&
          a.block <= migration().completed_block! &&
          (a.coldkey === owner.coldkey || a.destination_coldkey === owner.coldkey),
      );
      if (!acted) expect(now.sort()).toEqual(was.sort());
    }
  });
});

describe('stake and income in spec 473', () => {
  it('every day end, stake info lists the truth positions and, at stake 0, its zero-stake positions', async () => {
    const days = truth.days.filter((d) => d.last_block >= SPEC_473_FROM);
    expect(days.length).toBeGreaterThanOrEqual(4);
    let zeros = 0;
    for (const day of days) {
      const state = await at(day.last_block);
      for (const owner of [demo(), successor(), ...truth.coldkeys.slice(1, 6)]) {
        const entry = owner.days.find((d) => d.date === day.date)!;
        const want = [
          ...entry.positions.map((p) => [hexOf(p.hotkey), String(p.netuid), p.alpha_rao]),
          ...(entry.zero_stake_positions ?? []).map((p) => [hexOf(p.hotkey), String(p.netuid), '0']),
        ];
        zeros += entry.zero_stake_positions?.length ?? 0;
        expect((await stakeRows(state, owner.coldkey)).sort(), `${owner.coldkey} ${day.date}`).toEqual(
          want.sort(),
        );
      }
    }
    // The demo's holder (its successor after the coldkey swap) unstakes all of one position the day after
    // 473: its AlphaV2 key remains with a share worth under a rao, listed at stake 0.
    const lastDay = successor().days.at(-1)!;
    expect(lastDay.zero_stake_positions?.length ?? 0).toBeGreaterThan(0);
    const [zero] = lastDay.zero_stake_positions!;
    const share = (await read(
      await at(truth.days.at(-1)!.last_block),
      'subtensorModule.alphaV2',
      zero!.hotkey,
      successor().coldkey,
      zero!.netuid,
    )) as unknown as { mantissa: Codec };
    expect(big(share.mantissa)).toBeGreaterThan(0n);
    expect(zeros).toBeGreaterThan(0);
  });

  it("the truth's income is the chain's stake growth that no action and no sweep block explains", async () => {
    const incomeKinds = new Set(['auto-stake', 'root-claim', 'lease-dividends', 'miner-incentive']);
    const migrationBlocks = new Set<number>();
    for (let b = migration().first_block; b <= migration().completed_block!; b++) migrationBlocks.add(b);
    const states = new Map<number, Promise<Decorated>>();
    const stakeAt = async (coldkey: string, block: number) => {
      if (!states.has(block)) states.set(block, at(block));
      const rows = await stakeRows(await states.get(block)!, coldkey);
      return new Map(rows.map(([h, n, s]) => [`${h}/${n}`, BigInt(s!)]));
    };
    const days = truth.days.filter((d) => d.first_block > SPEC_473_FROM - BLOCKS_PER_DAY);
    for (const owner of [demo(), successor(), truth.coldkeys[3]!, truth.coldkeys[5]!]) {
      for (const day of days) {
        const previous = truth.days[truth.days.indexOf(day) - 1]!;
        const growth = new Map<string, bigint>();
        const addTo = (from: Map<string, bigint>, to: Map<string, bigint>, sign: bigint) => {
          for (const key of new Set([...from.keys(), ...to.keys()])) {
            growth.set(key, (growth.get(key) ?? 0n) + sign * ((to.get(key) ?? 0n) - (from.get(key) ?? 0n)));
          }
        };
        addTo(
          await stakeAt(owner.coldkey, previous.last_block),
          await stakeAt(owner.coldkey, day.last_block),
          1n,
        );
        const blocks = new Set(
          truth.actions
            .filter(
              (a) =>
                a.block >= day.first_block &&
                a.block <= day.last_block &&
                !incomeKinds.has(a.action) &&
                (a.action === 'hotkey-swap' ||
                  a.coldkey === owner.coldkey ||
                  a.destination_coldkey === owner.coldkey ||
                  (a.payouts ?? []).some((p) => p.coldkey === owner.coldkey)),
            )
            .map((a) => a.block),
        );
        for (const b of migrationBlocks) if (b >= day.first_block && b <= day.last_block) blocks.add(b);
        for (const block of blocks) {
          addTo(await stakeAt(owner.coldkey, block - 1), await stakeAt(owner.coldkey, block), -1n);
        }
        const got = [...growth].filter(([, v]) => v !== 0n).sort();
        const want = owner.days
          .find((d) => d.date === day.date)!
          .income.map((i) => [`${hexOf(i.hotkey)}/${i.netuid}`, BigInt(i.alpha_rao)] as [string, bigint])
          .sort();
        expect(got, `${owner.coldkey} ${day.date}`).toEqual(want);
      }
    }
  }, 300_000);
});

describe('options', () => {
  it('a spec-473 block needs a spec-425 block before it', () => {
    const base = { ...OPTIONS, runtimes: 'legacy' as const };
    expect(() => resolveWorldParams({ ...base, spec425Block: null }, Date.now())).toThrow(/spec 425/);
    expect(() => resolveWorldParams({ ...base, spec425Block: SPEC_473_FROM + 1 }, Date.now())).toThrow(
      /spec 425/,
    );
    const params = resolveWorldParams(base, Date.now());
    expect([params.spec425Block, params.spec473Block]).toEqual([SPEC_425_FROM, SPEC_473_FROM]);
  });
});

describe('limit orders', () => {
  const orders = () => truth.actions.filter((a) => a.action.startsWith('limit-order-'));

  it('spec 473 has the LimitOrders pallet at index 32 with execute_batched_orders and OrderExecuted as the real pallet declares them', async () => {
    const state = await at(SPEC_473_FROM + 5);
    const pallet = state.registry.metadata.pallets.find((p) => p.name.toString() === 'LimitOrders')!;
    expect(pallet.index.toNumber()).toBe(32);
    const executed = state.events.limitOrders!.OrderExecuted!;
    expect(executed.meta.fields.map((f) => f.name.toString())).toEqual([
      'order_id',
      'signer',
      'netuid',
      'order_type',
      'amount_in',
      'amount_out',
    ]);
    const summary = state.events.limitOrders!.GroupExecutionSummary!;
    expect(summary.meta.fields.map((f) => f.name.toString())).toEqual([
      'netuid',
      'net_side',
      'net_amount',
      'actual_out',
      'executed_count',
    ]);
    const call = api.registry.findMetaCall(new Uint8Array([32, 1]));
    expect(call.method).toBe('executeBatchedOrders');
    expect(call.meta.fields.map((f) => f.name.toString())).toEqual(['netuid', 'orders']);
    expect((await at(SPEC_473_FROM - 2)).events.limitOrders).toBeUndefined();
  });

  it("fills one buy and one sell of the demo's holder in one batch, with the pallet's events in its order", async () => {
    const [buy, sell] = orders();
    expect(orders().map((o) => o.action)).toEqual(['limit-order-buy', 'limit-order-sell']);
    expect(buy!.block).toBe(sell!.block);
    expect(buy!.block).toBeGreaterThan(SPEC_473_FROM);
    // The day after 473 the coldkey swap has happened: the successor signs.
    expect(buy!.coldkey).toBe(successor().coldkey);
    const records = await events(await at(buy!.block));
    const mine = buy!.events.map((e) => records[e.event_index]!);
    const names = mine.map(nameOf);
    const pool =
      names[1] === 'Balances.Transfer'
        ? [
            'Balances.Transfer',
            names[2] === 'SubtensorModule.StakeAdded'
              ? 'SubtensorModule.StakeAdded'
              : 'SubtensorModule.StakeRemoved',
          ]
        : [];
    expect(names).toEqual([
      'Balances.Transfer',
      ...pool,
      'LimitOrders.OrderExecuted',
      'Balances.Transfer',
      'LimitOrders.OrderExecuted',
      'Balances.Transfer',
      'LimitOrders.GroupExecutionSummary',
    ]);
    for (const record of mine) expect(record.phase.asApplyExtrinsic.toNumber()).toBe(buy!.extrinsic_index);
    expect(nameOf(records[buy!.events.at(-1)!.event_index + 1]!)).toBe('System.ExtrinsicSuccess');
    const limitAccount = palletAccountHex('bt/limit');
    const [collected] = mine;
    const [from, to, amount] = collected!.event.data as unknown as Codec[];
    expect([accountHex(from!), accountHex(to!), big(amount!)]).toEqual([
      hexOf(buy!.coldkey),
      limitAccount,
      BigInt(buy!.tao_rao),
    ]);
    for (const [order, type] of [
      [buy!, 'LimitBuy'],
      [sell!, 'TakeProfit'],
    ] as const) {
      const record = records[order.event_index]!;
      expect(nameOf(record)).toBe('LimitOrders.OrderExecuted');
      const [id, signer, netuid, orderType, amountIn, amountOut] = record.event.data as unknown as Codec[];
      expect(id!.toHex()).toBe(order.order_id);
      expect(accountHex(signer!)).toBe(hexOf(order.coldkey));
      expect(Number(netuid!.toString())).toBe(order.netuid);
      expect(orderType!.toString()).toBe(type);
      // Buy: TAO in, alpha out; sell: alpha in, TAO out (after the order's fee).
      const [inAmount, outAmount] =
        type === 'LimitBuy' ? [order.tao_rao, order.alpha_rao] : [order.alpha_rao, order.tao_rao];
      expect([big(amountIn!), big(amountOut!)]).toEqual([BigInt(inAmount!), BigInt(outAmount!)]);
    }
    // The seller is paid by the pallet account just before its OrderExecuted; the fees go in one transfer.
    const paid = records[sell!.event_index - 1]!.event.data as unknown as Codec[];
    expect([accountHex(paid[0]!), accountHex(paid[1]!), big(paid[2]!)]).toEqual([
      limitAccount,
      hexOf(sell!.coldkey),
      BigInt(sell!.tao_rao),
    ]);
    const fees = records[buy!.events.at(-2)!.event_index]!.event.data as unknown as Codec[];
    expect([accountHex(fees[0]!), big(fees[2]!)]).toEqual([
      limitAccount,
      BigInt(buy!.fee_rao) + BigInt(sell!.fee_rao),
    ]);
  });

  it("moves the holder's stake and TAO as the pallet does: the sold position to a zero-stake listing, the alpha bought onto the other", async () => {
    const [buy, sell] = orders();
    const owner = buy!.coldkey;
    const before = new Map(
      (await stakeRows(await at(buy!.block - 1), owner)).map(([h, n, s]) => [`${h}/${n}`, BigInt(s!)]),
    );
    const after = new Map(
      (await stakeRows(await at(buy!.block), owner)).map(([h, n, s]) => [`${h}/${n}`, BigInt(s!)]),
    );
    const sold = `${hexOf(sell!.hotkey!)}/${sell!.netuid}`;
    const bought = `${hexOf(buy!.hotkey!)}/${buy!.netuid}`;
    expect(before.get(sold)).toBe(BigInt(sell!.alpha_rao!));
    expect(after.get(sold)).toBe(0n);
    expect(after.get(bought)! - before.get(bought)!).toBe(BigInt(buy!.alpha_rao!));
    const free = async (block: number) =>
      big(
        ((await read(await at(block), 'system.account', owner)) as unknown as { data: { free: Codec } }).data
          .free,
      );
    expect((await free(buy!.block)) - (await free(buy!.block - 1))).toBe(
      BigInt(sell!.tao_rao) - BigInt(buy!.tao_rao),
    );
    const day = successor().days.find((d) => d.date === buy!.time.slice(0, 10))!;
    expect(day.zero_stake_positions).toContainEqual({ hotkey: sell!.hotkey, netuid: sell!.netuid });
  });
});

describe("today's chain (runtimes: 'today')", () => {
  /** 6 April 2026 00:00 in Europe/London (BST) is 5 April 23:00 UTC: the UK tax year 2026-27 starts there. */
  const TAX_YEAR_START = Date.UTC(2026, 3, 5, 23);
  const NOW = Date.UTC(2026, 10, 25, 15);
  const lifeTimes = (w: World) =>
    w.stakers.life.map((l) => ({ kind: l.step.kind, ms: w.timeline.timeOf(l.block) }));

  for (const [label, options] of [
    ['the 35-day default history', { historyDays: 35, blockTimeMs: 12_000 }],
    [
      "make demo's history from two days before 6 April (81-second blocks)",
      { historyDays: 235, blockTimeMs: 81_000 },
    ],
  ] as const) {
    it(`${label}: 343 → 393 → 425 → 473, the life, limit orders and sweep inside the tax year and the history`, () => {
      for (const magnitudes of ['mainnet', 'adversarial'] as const) {
        const w = new World(
          resolveWorldParams({ ...defaultDevnetOptions, ...options, runtimes: 'today', magnitudes }, NOW),
        );
        const { upgradeBlock, spec425Block, spec473Block } = w.params;
        const head = w.headAt(NOW);
        expect(upgradeBlock).toBeLessThan(spec425Block!);
        expect(spec425Block!).toBeLessThan(spec473Block!);
        expect(spec473Block!).toBeLessThan(head);
        const life = lifeTimes(w);
        expect(life.map((l) => l.kind)).toEqual(
          expect.arrayContaining([
            'dissolution',
            'coldkey-swap',
            'recycle',
            'fee-in-alpha',
            'auto-stake',
            'limit-orders',
          ]),
        );
        for (const step of life) {
          expect(step.ms, step.kind).toBeGreaterThanOrEqual(TAX_YEAR_START);
          expect(step.ms, step.kind).toBeLessThanOrEqual(w.timeline.timeOf(head));
        }
        // 473 comes after the dissolution and before the coldkey swap, so the demo coldkey itself is swept;
        // the limit orders come after the swap, so its successor (the coldkey printed) signs them.
        const at = (kind: string) => life.find((l) => l.kind === kind)!.ms;
        const spec473Ms = w.timeline.timeOf(spec473Block!);
        expect(at('dissolution')).toBeLessThan(spec473Ms);
        expect(at('coldkey-swap')).toBeGreaterThan(spec473Ms);
        expect(at('limit-orders')).toBeGreaterThan(at('coldkey-swap'));
        expect(spec473Ms).toBeGreaterThanOrEqual(TAX_YEAR_START);
        expect(w.stakers.holderAt(head)).toBe(w.stakers.successor);
        expect(w.stakers.sweepPositions.filter((s) => s.staker.demo).length).toBe(4);
      }
    });
  }

  it('the 35-day history runs the sweep to completion and fills the limit orders by today', () => {
    const options = { ...defaultDevnetOptions, historyDays: 35, runtimes: 'today' as const, now: () => NOW };
    const t = buildTruth(options, '2026-11-15', '2026-11-25');
    expect(t.latest_runtime_block).not.toBeNull();
    expect(t.alpha_v2_migration?.completed_block).not.toBeNull();
    const demoKey = t.coldkeys.find((c) => c.demo)!.coldkey;
    expect(
      t.alpha_v2_sweep.filter((r) => r.coldkey === demoKey && r.legacy && r.alpha_rao !== '0').length,
    ).toBe(4);
    const orders = t.actions.filter((a) => a.action.startsWith('limit-order-'));
    expect(orders.map((o) => o.coldkey)).toEqual([successorOf(t), successorOf(t)]);
    // The successor holds stake today and lists a zero-stake position.
    const today = t.coldkeys.find((c) => c.successor_of)!.days.at(-1)!;
    expect(today.positions.length).toBeGreaterThan(3);
    expect(today.zero_stake_positions?.length ?? 0).toBeGreaterThan(0);
  });

  it('a history too short for the full schedule gets both upgrades between the 393 upgrade and today', () => {
    const params = resolveWorldParams(
      { ...defaultDevnetOptions, historyDays: 2, genesis: GENESIS, runtimes: 'today' },
      GENESIS.getTime() + 2.5 * DAY,
    );
    const todayStart = 2 * BLOCKS_PER_DAY;
    expect(params.upgradeBlock).toBe(BLOCKS_PER_DAY + 3_600);
    expect(params.spec425Block!).toBeGreaterThan(params.upgradeBlock);
    expect(params.spec473Block!).toBeGreaterThan(params.spec425Block!);
    expect(params.spec473Block!).toBeLessThan(todayStart);
    const t = buildTruth(
      {
        ...defaultDevnetOptions,
        historyDays: 2,
        genesis: GENESIS,
        runtimes: 'today',
        now: () => GENESIS.getTime() + 2.5 * DAY,
      },
      '2026-05-01',
      '2026-05-03',
    );
    expect(t.alpha_v2_migration?.completed_block).not.toBeNull();
  });

  it("'legacy' ends with spec 393; named blocks and null are kept under either", () => {
    const legacy = resolveWorldParams({ ...defaultDevnetOptions, historyDays: 35, runtimes: 'legacy' }, NOW);
    expect([legacy.spec425Block, legacy.spec473Block]).toEqual([null, null]);
    const only425 = resolveWorldParams(
      { ...defaultDevnetOptions, historyDays: 35, runtimes: 'today', spec473Block: null },
      NOW,
    );
    expect(only425.spec425Block).not.toBeNull();
    expect(only425.spec473Block).toBeNull();
    const none = resolveWorldParams(
      {
        ...defaultDevnetOptions,
        historyDays: 35,
        runtimes: 'today',
        spec425Block: null,
        spec473Block: null,
      },
      NOW,
    );
    expect([none.spec425Block, none.spec473Block]).toEqual([null, null]);
    // Only 425 named: 473 follows six days later, as the default gap.
    const named = resolveWorldParams(
      { ...defaultDevnetOptions, historyDays: 35, runtimes: 'today', spec425Block: 100_000 },
      NOW,
    );
    const timeOf = (block: number) => named.genesisMs + block * named.blockTimeMs;
    expect(Math.floor(timeOf(named.spec473Block!) / DAY) - Math.floor(timeOf(100_000) / DAY)).toBe(6);
    expect(timeOf(named.spec473Block!) % DAY).toBe(DAY / 2);
  });

  it('the sandbox reports the holder of the demo stake: the successor once the coldkey swap is past', async () => {
    expect(devnet.holderColdkey).toBe(successor().coldkey);
    expect(devnet.demoColdkey).toBe(demo().coldkey);
  });
});

function successorOf(t: Truth): string {
  return t.coldkeys.find((c) => c.successor_of)!.coldkey;
}
