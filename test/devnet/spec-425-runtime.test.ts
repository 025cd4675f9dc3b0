/**
 * The sandbox's current runtime (spec 425) through the real @polkadot/api over a real WebSocket: V2
 * share storage, the events of each extrinsic in the runtime's order with their phase, the balance legs
 * to and from subnet accounts, and the demo coldkey's life in the current UK tax year. Every figure is
 * compared with the world's ground truth (`buildTruth`), computed from the world, never from the answers.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { AccountId32, EventRecord } from '@polkadot/types/interfaces';
import type { Codec } from '@polkadot/types/types';
import { u8aToHex } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
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
import type { TruthAction } from '../../pipeline/devnet/truth/truth-types.js';
import { type Decorated, events, read, runtimeCall } from './decorated.js';

// A world wholly inside the UK tax year 2026-27 (6 April 2026 to 5 April 2027, Europe/London).
const GENESIS = new Date('2026-05-01T00:00:00Z');
const DAY = 86_400_000;
const BLOCKS_PER_DAY = 7_200;
const SPEC_425_FROM = 6 * BLOCKS_PER_DAY + 3_600; // noon of day 6
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'current-runtime-test',
  historyDays: 16,
  genesis: GENESIS,
  upgradeBlock: 3 * BLOCKS_PER_DAY + 3_600,
  spec425Block: SPEC_425_FROM,
  // Spec 425 to the end (no 473 after it), whatever the sandbox's default history.
  spec473Block: null,
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

async function at(block: number): Promise<Decorated> {
  return api.at(await api.rpc.chain.getBlockHash(block));
}

/** The subnet account as the runtime derives it: "modl" ++ "subtensr" ++ netuid (u16 LE) ++ zeros. */
function subnetAccountHex(netuid: number): string {
  const bytes = new Uint8Array(32);
  bytes.set(new TextEncoder().encode('modlsubtensr'), 0);
  bytes[12] = netuid & 0xff;
  bytes[13] = netuid >> 8;
  return u8aToHex(bytes);
}

const hexOf = (address: string) => u8aToHex(decodeAddress(address));
const accountHex = (codec: Codec) => (codec as AccountId32).toHex();
const big = (codec: Codec) => BigInt(codec.toString());
const demo = () => truth.coldkeys.find((c) => c.demo)!;
const successor = () => truth.coldkeys.find((c) => c.successor_of)!;
const lifeOf = (kind: TruthAction['action']) =>
  truth.actions.filter(
    (a) =>
      a.action === kind &&
      (a.coldkey === demo().coldkey || (kind === 'hotkey-swap' && a.block >= SPEC_425_FROM)),
  );

/** What spec 425 emits for each kind of extrinsic, in order (opentensor/subtensor 14bc6f9). */
const EXPECTED_ORDER: Record<string, string[]> = {
  stake: ['Balances.Transfer', 'SubtensorModule.StakeAdded'],
  unstake: ['Balances.Transfer', 'SubtensorModule.StakeRemoved'],
  'move-within-subnet': [
    'SubtensorModule.StakeRemoved',
    'SubtensorModule.StakeAdded',
    'SubtensorModule.StakeMoved',
  ],
  'move-across-subnets': [
    'Balances.Transfer',
    'SubtensorModule.StakeRemoved',
    'Balances.Transfer',
    'SubtensorModule.StakeAdded',
    'SubtensorModule.StakeMoved',
  ],
  'stake-transfer': [
    'SubtensorModule.StakeRemoved',
    'SubtensorModule.StakeAdded',
    'SubtensorModule.StakeTransferred',
  ],
  'tao-transfer': ['Balances.Transfer'],
  'hotkey-swap': ['SubtensorModule.HotkeySwapped'],
  'coldkey-swap': ['Balances.Transfer', 'SubtensorModule.ColdkeySwapped'],
  recycle: ['SubtensorModule.AlphaRecycled'],
  'auto-stake': ['SubtensorModule.AutoStakeAdded'],
  'root-claim': ['SubtensorModule.RootClaimed'],
  'miner-incentive': ['SubtensorModule.IncentiveAlphaEmittedToMiners'],
  'lease-dividends': [
    'SubtensorModule.StakeRemoved',
    'SubtensorModule.StakeAdded',
    'SubtensorModule.SubnetLeaseDividendsDistributed',
  ],
};

const nameOf = (record: EventRecord) =>
  `${record.event.section.charAt(0).toUpperCase()}${record.event.section.slice(1)}.${record.event.method}`;

describe('spec 425', () => {
  it('runs spec 425 from its upgrade block, spec 393 before, with V2 share storage and SafeFloat', async () => {
    const before = await at(SPEC_425_FROM - 2);
    const after = await at(SPEC_425_FROM + 10);
    expect(before.runtimeVersion.specVersion.toNumber()).toBe(393);
    expect(after.runtimeVersion.specVersion.toNumber()).toBe(425);
    expect(after.query.subtensorModule?.alphaV2).toBeDefined();
    expect(after.query.subtensorModule?.totalHotkeySharesV2).toBeDefined();
    expect(before.query.subtensorModule?.alphaV2).toBeUndefined();
    expect(after.events.subtensorModule?.TransactionFeePaidWithAlpha).toBeDefined();
  });

  it('the demo coldkey lives through every case in the current UK tax year', () => {
    const taxYearStart = '2026-04-06';
    for (const kind of [
      'move-across-subnets',
      'move-within-subnet',
      'stake-transfer',
      'hotkey-swap',
      'coldkey-swap',
      'dissolution',
      'recycle',
      'auto-stake',
      'root-claim',
      'lease-dividends',
      'miner-incentive',
    ] as const) {
      const found = lifeOf(kind);
      expect(found.length, kind).toBeGreaterThan(0);
      for (const action of found)
        expect(action.time >= taxYearStart && action.time < '2027-04-06').toBe(true);
    }
    const fee = truth.actions.filter((a) => a.coldkey === demo().coldkey && a.alpha_fee_rao !== null);
    expect(fee.length).toBe(1);
    const dissolution = lifeOf('dissolution')[0]!;
    const paid = dissolution.payouts!.find((p) => p.coldkey === demo().coldkey)!;
    expect(BigInt(paid.tao_rao)).toBeGreaterThan(0n);
    expect(BigInt(paid.alpha_rao)).toBeGreaterThan(0n);
  });
});

describe('shares in V2', () => {
  it('a position written after the upgrade is read from AlphaV2 only and equals the truth to the rao', async () => {
    const move = lifeOf('move-within-subnet')[0]!;
    const day = truth.days.find((d) => d.first_block <= move.block && move.block <= d.last_block)!;
    const state = await at(day.last_block);
    const hotkey = move.destination_hotkey!;
    const netuid = move.netuid!;
    const coldkey = demo().coldkey;
    // The V1 entry is gone (moved on write), the V2 entry holds the share.
    const v1 = (await read(state, 'subtensorModule.alpha', hotkey, coldkey, netuid)) as unknown as {
      bits: Codec;
    };
    expect(big(v1.bits)).toBe(0n);
    const keysV1 = await state.query.subtensorModule!.alpha!.keys(hotkey, coldkey);
    expect(keysV1.some((k) => k.args[2]!.toString() === String(netuid))).toBe(false);
    const keysV2 = await state.query.subtensorModule!.alphaV2!.keys(hotkey, coldkey);
    expect(keysV2.some((k) => k.args[2]!.toString() === String(netuid))).toBe(true);
    const share = (await read(state, 'subtensorModule.alphaV2', hotkey, coldkey, netuid)) as unknown as {
      mantissa: Codec;
      exponent: Codec;
    };
    const denominator = (await read(
      state,
      'subtensorModule.totalHotkeySharesV2',
      hotkey,
      netuid,
    )) as unknown as {
      mantissa: Codec;
      exponent: Codec;
    };
    const totalAlpha = big(await read(state, 'subtensorModule.totalHotkeyAlpha', hotkey, netuid));
    expect(big(share.mantissa)).toBeGreaterThan(0n);
    expect(big(denominator.mantissa)).toBeGreaterThan(0n);
    const v1Total = (await read(state, 'subtensorModule.totalHotkeyShares', hotkey, netuid)) as unknown as {
      bits: Codec;
    };
    expect(big(v1Total.bits)).toBe(0n);

    const want = BigInt(
      demo()
        .days.find((d) => d.date === day.date)!
        .positions.find((p) => p.hotkey === hotkey && p.netuid === netuid)!.alpha_rao,
    );
    // The runtime call answers with the chain's own arithmetic: the truth to the rao.
    const info = (await runtimeCall(
      state,
      'stakeInfoRuntimeApi.getStakeInfoForColdkey',
    )(coldkey)) as unknown as Array<{
      hotkey: Codec;
      netuid: Codec;
      stake: Codec;
    }>;
    const row = [...info].find(
      (r) => accountHex(r.hotkey) === hexOf(hotkey) && r.netuid.toString() === String(netuid),
    )!;
    expect(big(row.stake)).toBe(want);
    // Read independently from storage: TotalHotkeyAlpha × share ÷ denominator (SafeFloat is mantissa ×
    // 10^exponent). Exact rational arithmetic may differ from the chain's truncating SafeFloat by one rao.
    const scaled = (m: bigint, e: bigint) =>
      (e >= 0n ? [m * 10n ** e, 1n] : [m, 10n ** -e]) as [bigint, bigint];
    const [sn, sd] = scaled(big(share.mantissa), big(share.exponent));
    const [dn, dd] = scaled(big(denominator.mantissa), big(denominator.exponent));
    const exact = (totalAlpha * sn * dd) / (sd * dn);
    expect(exact - want >= -1n && exact - want <= 1n).toBe(true);
  });

  it('a position nobody wrote since the upgrade stays in Alpha (V1) and the runtime reads it from there', async () => {
    const head = truth.days[truth.days.length - 1]!.last_block;
    const state = await at(head);
    const keys = await state.query.subtensorModule!.alpha!.keys();
    expect(keys.length).toBeGreaterThan(0);
    const [hotkey, coldkey, netuid] = keys[0]!.args as unknown as [Codec, Codec, Codec];
    const v2 = await read(state, 'subtensorModule.alphaV2', hotkey, coldkey, netuid);
    expect(big((v2 as unknown as { mantissa: Codec }).mantissa)).toBe(0n);
    const owner = truth.coldkeys.find((c) => hexOf(c.coldkey) === accountHex(coldkey))!;
    const truthDay = owner.days[owner.days.length - 1]!;
    const info = (await runtimeCall(
      state,
      'stakeInfoRuntimeApi.getStakeInfoForColdkey',
    )(coldkey)) as unknown as Array<{
      hotkey: Codec;
      netuid: Codec;
      stake: Codec;
    }>;
    for (const position of truthDay.positions) {
      const row = [...info].find(
        (r) =>
          accountHex(r.hotkey) === hexOf(position.hotkey) && r.netuid.toString() === String(position.netuid),
      );
      expect(row && big(row.stake)).toBe(BigInt(position.alpha_rao));
    }
  });

  it('after the coldkey swap the successor holds the positions; the demo coldkey holds none', async () => {
    const last = truth.days[truth.days.length - 1]!;
    const state = await at(last.last_block);
    const call = runtimeCall(state, 'stakeInfoRuntimeApi.getStakeInfoForColdkey');
    expect([...((await call(demo().coldkey)) as unknown as Codec[])]).toEqual([]);
    const rows = [
      ...((await call(successor().coldkey)) as unknown as Array<{
        hotkey: Codec;
        netuid: Codec;
        stake: Codec;
      }>),
    ];
    const want = successor().days.find((d) => d.date === last.date)!.positions;
    expect(rows.map((r) => [accountHex(r.hotkey), r.netuid.toString(), r.stake.toString()]).sort()).toEqual(
      want.map((p) => [hexOf(p.hotkey), String(p.netuid), p.alpha_rao]).sort(),
    );
  });
});

describe('events of one extrinsic', () => {
  it('come in the runtime order, all with the extrinsic phase, then ExtrinsicSuccess', async () => {
    const blocks = [...new Set(truth.actions.map((a) => a.block))];
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks) {
      const records = await events(await at(block));
      for (const action of truth.actions.filter((a) => a.block === block)) {
        const mine = action.events.map((e) => records[e.event_index]!);
        const expected =
          action.action === 'dissolution'
            ? [
                ...action.payouts!.filter((p) => p.tao_rao !== '0').map(() => 'Balances.Transfer'),
                'SubtensorModule.NetworkRemoved',
              ]
            : action.action === 'unstake' && action.alpha_fee_rao !== null
              ? [...EXPECTED_ORDER.unstake!, 'SubtensorModule.TransactionFeePaidWithAlpha']
              : action.action === 'stake-transfer' && action.netuid !== action.destination_netuid
                ? [
                    'Balances.Transfer',
                    'SubtensorModule.StakeRemoved',
                    'Balances.Transfer',
                    'Balances.Transfer',
                    'SubtensorModule.StakeAdded',
                    'SubtensorModule.StakeTransferred',
                  ]
                : action.action === 'move-across-subnets' &&
                    truth.staking_events.some(
                      (s) =>
                        s.block === block &&
                        s.event_index === action.event_index &&
                        s.kind === 'StakeSwapped',
                    )
                  ? [...EXPECTED_ORDER['move-across-subnets']!.slice(0, 4), 'SubtensorModule.StakeSwapped']
                  : EXPECTED_ORDER[action.action]!;
        expect(mine.map(nameOf), `${action.action} at ${block}`).toEqual(expected);
        // Consecutive, one phase for all of them, and the extrinsic's success right after.
        const first = action.events[0]!.event_index;
        expect(action.events.map((e) => e.event_index)).toEqual(mine.map((_, i) => first + i));
        if (action.extrinsic_index === null) {
          for (const record of mine) expect(record.phase.isInitialization).toBe(true);
        } else {
          for (const record of mine)
            expect(record.phase.asApplyExtrinsic.toNumber()).toBe(action.extrinsic_index);
          const next = records[first + mine.length]!;
          expect(nameOf(next)).toBe('System.ExtrinsicSuccess');
          expect(next.phase.asApplyExtrinsic.toNumber()).toBe(action.extrinsic_index);
        }
      }
    }
  });

  it('stake and unstake move their TAO by a balance transfer to or from the subnet account', async () => {
    const checked = new Set<string>();
    for (const action of truth.actions
      .filter((a) => a.action === 'stake' || a.action === 'unstake')
      .slice(0, 12)) {
      const records = await events(await at(action.block));
      const [leg, stake] = action.events.map((e) => records[e.event_index]!);
      const [from, to, amount] = leg!.event.data as unknown as [Codec, Codec, Codec];
      const subnet = subnetAccountHex(action.netuid!);
      if (action.action === 'stake') {
        expect([accountHex(from), accountHex(to)]).toEqual([hexOf(action.coldkey), subnet]);
      } else {
        expect([accountHex(from), accountHex(to)]).toEqual([subnet, hexOf(action.coldkey)]);
      }
      expect(big(amount)).toBe(BigInt(action.tao_rao));
      expect(big((stake!.event.data as unknown as Codec[])[2]!)).toBe(BigInt(action.tao_rao));
      checked.add(action.action);
    }
    expect(checked).toEqual(new Set(['stake', 'unstake']));
  });

  it('the dissolution pays each holder from the subnet account before NetworkRemoved, and the subnet is gone', async () => {
    const dissolution = lifeOf('dissolution')[0]!;
    const records = await events(await at(dissolution.block));
    const legs = dissolution.events.slice(0, -1).map((e) => records[e.event_index]!);
    const paid = legs.map((r) => {
      const [from, to, amount] = r.event.data as unknown as [Codec, Codec, Codec];
      expect(accountHex(from)).toBe(subnetAccountHex(dissolution.netuid!));
      return [accountHex(to), amount.toString()];
    });
    expect(paid).toEqual(
      dissolution.payouts!.filter((p) => p.tao_rao !== '0').map((p) => [hexOf(p.coldkey), p.tao_rao]),
    );
    const after = await at(dissolution.block);
    expect((await read(after, 'subtensorModule.networksAdded', dissolution.netuid)).toJSON()).toBe(false);
    const before = await at(dissolution.block - 1);
    const free = async (state: Decorated) =>
      big(
        ((await read(state, 'system.account', demo().coldkey)) as unknown as { data: { free: Codec } }).data
          .free,
      );
    const mine = dissolution.payouts!.find((p) => p.coldkey === demo().coldkey)!;
    expect((await free(after)) - (await free(before))).toBe(BigInt(mine.tao_rao));
  });

  it('income of each position-day of the demo coldkey and its successor is the stake growth no action explains', async () => {
    // The truth's income is the figure the pack must reproduce; here: swaps, dissolution and moves give none.
    const swapDay = lifeOf('hotkey-swap')[0]!.time.slice(0, 10);
    const day = demo().days.find((d) => d.date === swapDay)!;
    const previous = demo().days[demo().days.indexOf(day) - 1]!;
    for (const income of day.income) expect(BigInt(income.alpha_rao)).toBeGreaterThanOrEqual(0n);
    const totalBefore = previous.positions.reduce((a, p) => a + BigInt(p.alpha_rao), 0n);
    const totalAfter = day.positions.reduce((a, p) => a + BigInt(p.alpha_rao), 0n);
    const income = day.income.reduce((a, p) => a + BigInt(p.alpha_rao), 0n);
    const others = truth.actions.filter(
      (a) => a.time.startsWith(swapDay) && a.coldkey === demo().coldkey && a.action !== 'hotkey-swap',
    );
    if (others.length === 0) {
      // Only growth and the swap: the swap's fall and rise cancel within a rao per moved position.
      const moved = previous.positions.length;
      const diff = totalAfter - totalBefore - income;
      expect(diff >= -BigInt(moved) && diff <= BigInt(moved)).toBe(true);
    }
    const autoStake = lifeOf('auto-stake')[0]!;
    const autoDay = demo().days.find((d) => d.date === autoStake.time.slice(0, 10))!;
    const received = autoDay.income.find(
      (i) => i.hotkey === autoStake.hotkey && i.netuid === autoStake.netuid,
    )!;
    expect(BigInt(received.alpha_rao)).toBe(BigInt(autoStake.alpha_rao!));
  });
});

describe('stake and income against the truth', () => {
  it("every day end, the runtime call gives the truth's positions of the demo coldkey and its successor to the rao", async () => {
    const days = truth.days.filter((d) => d.last_block >= SPEC_425_FROM);
    expect(days.length).toBeGreaterThan(8);
    for (const day of days) {
      const state = await at(day.last_block);
      const call = runtimeCall(state, 'stakeInfoRuntimeApi.getStakeInfoForColdkey');
      for (const owner of [demo(), successor()]) {
        const rows = [
          ...((await call(owner.coldkey)) as unknown as Array<{
            hotkey: Codec;
            netuid: Codec;
            stake: Codec;
          }>),
        ];
        const want = owner.days.find((d) => d.date === day.date)!.positions;
        expect(
          rows.map((r) => [accountHex(r.hotkey), r.netuid.toString(), r.stake.toString()]).sort(),
          `${owner.coldkey} ${day.date}`,
        ).toEqual(want.map((p) => [hexOf(p.hotkey), String(p.netuid), p.alpha_rao]).sort());
      }
    }
  });

  it("the truth's income per position-day is the chain's stake growth that no action of the coldkey explains", async () => {
    // Read from the chain only: stake at each day end, and before and after each block with an action that
    // moves the coldkey's holdings other than by income (auto-stake, root claims, lease dividends are income).
    const income = new Set(['auto-stake', 'root-claim', 'lease-dividends', 'miner-incentive']);
    const states = new Map<number, Promise<Decorated>>();
    const stakeAt = async (coldkey: string, block: number) => {
      if (!states.has(block)) states.set(block, at(block));
      const state = await states.get(block)!;
      const rows = [
        ...((await runtimeCall(
          state,
          'stakeInfoRuntimeApi.getStakeInfoForColdkey',
        )(coldkey)) as unknown as Array<{
          hotkey: Codec;
          netuid: Codec;
          stake: Codec;
        }>),
      ];
      return new Map(rows.map((r) => [`${accountHex(r.hotkey)}/${r.netuid.toString()}`, big(r.stake)]));
    };
    const days = truth.days.filter((d) => d.first_block > SPEC_425_FROM);
    for (const owner of [demo(), successor()]) {
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
        // Only actions that name the coldkey (or a hotkey swap, which moves every holder) can change its stake.
        const names = (a: TruthAction) =>
          a.action === 'hotkey-swap' ||
          a.coldkey === owner.coldkey ||
          a.destination_coldkey === owner.coldkey ||
          (a.payouts ?? []).some((p) => p.coldkey === owner.coldkey);
        const blocks = new Set(
          truth.actions
            .filter(
              (a) =>
                a.block >= day.first_block && a.block <= day.last_block && !income.has(a.action) && names(a),
            )
            .map((a) => a.block),
        );
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
