/**
 * The TAO side of what a staker's 2025/26 ran beside staking, on the runtimes mainnet ran then: a world placed
 * by date from 1 January to 31 January 2026 (spec 343, one-hour blocks), published by the real pipeline, and
 * the demo coldkey's 2025/26 pack built over the real WebSocket. Read from the chain itself (its events and
 * `System.Account`, `StakeInfoRuntimeApi`), never from the world's own lists:
 * - transaction fees: every call the demo coldkey signed paid its fee from its free TAO, and each fee is a
 *   disposal of that TAO in the pack;
 * - a proxy deposit: reserved on 6 January and returned on 27 January, still held (no disposal);
 * - a neuron registration on 9 January: the TAO burned is a disposal at its market value;
 * - an EVM round trip (13 and 15 January): TAO to the coldkey's own EVM address and back, no disposal;
 * - the pack's TAO pool at the record's end is what the chain holds: free and reserved TAO and root stake.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { decodeAddress } from '@polkadot/util-crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../../pipeline/chain/rpc-client.js';
import type { DecodedEvent } from '../../../../pipeline/chain/runtime-codec.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
import { evmMappedAccount } from '../../../../pipeline/devnet/world/tao-mechanisms.js';
import { buildPack } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { field, runtimeCall } from '../../../devnet/decorated.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-01-01T00:00:00Z');

let world: PackWorld;
let chain: PackChain;
let rpc: RpcClient;
let api: ApiPromise;
let files: Map<string, string>;
/** Every event of the chain that names the demo coldkey, block by block, as the chain's metadata decodes it. */
const demoEvents: Array<{ block: number; timeMs: number; event: DecodedEvent; all: DecodedEvent[] }> = [];
/** The last block of each UK day the chain has. */
const dayEnds = new Map<string, number>();
let demo: string;

const named = (event: DecodedEvent, i: number) => event.fields[i]?.toString();

beforeAll(async () => {
  world = await sharedPackWorld({
    genesis: GENESIS,
    historyDays: 30,
    blockTimeMs: 3_600_000,
    runtimes: 'mainnet',
  });
  demo = world.devnet.demoColdkey;
  chain = openPackChain(world.devnet.url);
  const zip = await JSZip.loadAsync(
    await buildPack(
      {
        id: 'ord_tao_mechanisms',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: '2025/26',
        coldkeys: [demo],
        paidAt: new Date('2026-01-31T12:00:00Z'),
      },
      { store: world.store, chain: chain.reader },
    ),
  );
  files = new Map();
  for (const name of Object.keys(zip.files)) files.set(name, await zip.file(name)!.async('string'));
  rpc = await connectRpc({ url: world.devnet.url });
  const reader = new ChainReader(rpc);
  for (let block = 1; block <= world.devnet.head(); block++) {
    const { events, timeMs } = await reader.eventsAndTime(await reader.blockHash(block));
    dayEnds.set(ukDay(timeMs), block);
    const all = (await reader.codecOfBlock(block)).decodeEvents(events);
    for (const event of all) {
      if (event.fields.some((f) => f.toString() === demo)) demoEvents.push({ block, timeMs, event, all });
    }
  }
  api = await ApiPromise.create({
    provider: new WsProvider(world.devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
}, 600_000);

afterAll(async () => {
  await api?.disconnect();
  await rpc?.close();
  await chain?.close();
  await world?.close();
});

/** The UK days the pack's record covers: after its opening day (1 January) up to its pools' day. */
const inRecord = (date: string) => {
  const end = readCsv(files.get('pools.csv')!).find((r) => r['kind'] === 'pool')!['as_at']!;
  return date > GENESIS.toISOString().slice(0, 10) && date <= end;
};

/** The demo coldkey's fee events: `TransactionFeePaid { who, actual_fee, tip }` with a fee. */
const fees = () =>
  demoEvents.filter(
    ({ event }) =>
      event.pallet === 'TransactionPayment' &&
      event.name === 'TransactionFeePaid' &&
      named(event, 0) === demo &&
      BigInt(named(event, 1)!) > 0n,
  );

/** The calls the demo coldkey signed, by the events that name it as the one who acted. */
const SIGNED: Array<[pallet: string, name: string, field: number]> = [
  ['SubtensorModule', 'StakeAdded', 0],
  ['SubtensorModule', 'StakeRemoved', 0],
  ['SubtensorModule', 'StakeMoved', 0],
  ['SubtensorModule', 'StakeSwapped', 0],
  ['SubtensorModule', 'StakeTransferred', 0],
  ['SubtensorModule', 'RootClaimed', 0],
  ['SubtensorModule', 'AlphaRecycled', 0],
];

describe("the demo coldkey's TAO mechanisms in January 2026 (spec 343)", () => {
  it('every call the demo coldkey signed paid its fee from its free TAO, withdrawn before the call', () => {
    const signed = demoEvents.filter(
      ({ event }) =>
        event.extrinsicIndex !== null &&
        SIGNED.some(([p, n, f]) => event.pallet === p && event.name === n && named(event, f) === demo),
    );
    expect(signed.length).toBeGreaterThan(10);
    for (const { block, event, all } of signed) {
      const own = all.filter((e) => e.extrinsicIndex === event.extrinsicIndex);
      const paid = own.find((e) => e.name === 'TransactionFeePaid');
      expect(paid && named(paid, 0), `${block}/${event.index} ${event.name}`).toBe(demo);
      const fee = BigInt(named(paid!, 1)!);
      expect(fee).toBeGreaterThan(0n);
      // Withdrawn first in the extrinsic; burned before spec 385 (no author's deposit).
      expect([own[0]!.name, named(own[0]!, 0), named(own[0]!, 1)]).toEqual(['Withdraw', demo, String(fee)]);
      expect(
        own.some((e) => e.pallet === 'Balances' && e.name === 'Deposit' && named(e, 1) === String(fee)),
      ).toBe(false);
    }
  });

  it('each fee is a disposal of the TAO paid at its market value, on its UK day', () => {
    const input = readCsv(files.get('cgt-input.csv')!);
    const disposals = readCsv(files.get('disposals.csv')!);
    const paid = fees().filter(({ timeMs }) => inRecord(ukDay(timeMs)));
    expect(paid.length).toBeGreaterThan(10);
    for (const { block, timeMs, event } of paid) {
      const ref = `event ${block}/${event.index}`;
      const fee = BigInt(named(event, 1)!);
      const rows = input.filter(
        (r) =>
          r['datetime'] === new Date(timeMs).toISOString() &&
          r['asset'] === 'TAO' &&
          r['action'] === 'dispose' &&
          raoOf(r['quantity']!) === fee,
      );
      expect(rows.length, ref).toBe(1);
      expect(Number(rows[0]!['gbp']), ref).toBeGreaterThan(0);
      const day = disposals.find((d) => d['date'] === ukDay(timeMs) && d['asset'] === 'TAO');
      expect(day?.['refs']?.split('; '), ref).toContain(ref);
    }
  });

  it("a fee is an allowable cost of the stake or unstake it paid for: the disposal's incidental cost", () => {
    const input = readCsv(files.get('cgt-input.csv')!);
    const calls = demoEvents.filter(
      ({ event, timeMs }) =>
        inRecord(ukDay(timeMs)) &&
        (event.name === 'StakeAdded' || event.name === 'StakeRemoved') &&
        named(event, 0) === demo &&
        named(event, 4) !== '0',
    );
    expect(calls.length).toBeGreaterThan(3);
    for (const { block, timeMs, event, all } of calls) {
      const paid = all.find(
        (e) => e.extrinsicIndex === event.extrinsicIndex && e.name === 'TransactionFeePaid',
      )!;
      const at = new Date(timeMs).toISOString();
      const fee = input.find(
        (r) =>
          r['datetime'] === at && r['asset'] === 'TAO' && raoOf(r['quantity']!) === BigInt(named(paid, 1)!),
      )!;
      // What the call gave up: TAO for a stake, the alpha for an unstake.
      const given = input.find(
        (r) =>
          r['datetime'] === at &&
          r['action'] === 'dispose' &&
          r !== fee &&
          (event.name === 'StakeAdded' ? r['asset'] === 'TAO' : r['asset'] !== 'TAO'),
      );
      expect(given?.['fee_gbp'], `${block}/${event.index}`).toBe(fee['gbp']);
    }
  });

  /** The demo's call whose events include `pallet.name`, with the events of its extrinsic. */
  const callWith = (pallet: string, name: string) => {
    // A call the demo signed: one of its extrinsic's events names the demo (NeuronRegistered names none).
    const found = demoEvents.find(({ event, all }) =>
      all.some((e) => e.extrinsicIndex === event.extrinsicIndex && e.pallet === pallet && e.name === name),
    );
    expect(found, `${pallet}.${name}`).toBeDefined();
    const { block, timeMs, all } = found!;
    const own = all.filter((e) => e.extrinsicIndex === found!.event.extrinsicIndex);
    return { block, timeMs, event: own.find((e) => e.name === name)!, own };
  };
  /** The pack's rows of cgt-input.csv at an instant, and its events.csv row of the block. */
  const packed = (timeMs: number, block: number) => ({
    rows: readCsv(files.get('cgt-input.csv')!).filter(
      (r) => r['datetime'] === new Date(timeMs).toISOString(),
    ),
    events: readCsv(files.get('events.csv')!).filter((r) => r['block'] === String(block)),
  });
  const feeOf = (own: DecodedEvent[]) => BigInt(named(own.find((e) => e.name === 'TransactionFeePaid')!, 1)!);
  const reservedAt = async (block: number) => {
    const state = await api.at(await api.rpc.chain.getBlockHash(block));
    const account = (await state.query['system']!['account']!(demo)) as unknown as {
      data: { free: Codec; reserved: Codec };
    };
    return BigInt(account.data.reserved.toString());
  };

  it('a proxy deposit is reserved, not spent: still held, returned later, no disposal but its fees', async () => {
    const added = callWith('Proxy', 'ProxyAdded');
    const removed = callWith('Proxy', 'ProxyRemoved');
    expect(ukDay(added.timeMs)).toBe('2026-01-06');
    expect(ukDay(removed.timeMs)).toBe('2026-01-27');
    const reserve = added.own.find((e) => e.name === 'Reserved')!;
    const unreserve = removed.own.find((e) => e.name === 'Unreserved')!;
    expect([named(reserve, 0), named(unreserve, 0)]).toEqual([demo, demo]);
    const deposit = BigInt(named(reserve, 1)!);
    expect(BigInt(named(unreserve, 1)!)).toBe(deposit);
    // System.Account holds it as reserved between the two calls, and not before or after.
    expect(await reservedAt(added.block - 1)).toBe(0n);
    expect(await reservedAt(added.block)).toBe(deposit);
    expect(await reservedAt(removed.block - 1)).toBe(deposit);
    expect(await reservedAt(removed.block)).toBe(0n);
    for (const call of [added, removed]) {
      const { rows, events } = packed(call.timeMs, call.block);
      // The call's fee is disposed of; the deposit is not (another call of the block may book its own rows).
      expect(
        rows.filter((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === feeOf(call.own)),
      ).toHaveLength(1);
      expect(rows.filter((r) => raoOf(r['quantity']!) === deposit)).toEqual([]);
      const row = events.find((r) => /(^|; )(Reserved|Unreserved) /.test(r['chain_events']!))!;
      expect(row['action']).toBe('deposit');
      expect(row['treatment']).toMatch(/still held/);
    }
  });

  it('a neuron registration: the TAO burned is a disposal at its market value, its fee an allowable cost', () => {
    const call = callWith('SubtensorModule', 'NeuronRegistered');
    expect(ukDay(call.timeMs)).toBe('2026-01-09');
    // The fee's withdrawal, then the burn's, of the demo coldkey (NeuronRegistered names no coldkey).
    const withdrawn = call.own.filter((e) => e.name === 'Withdraw' && named(e, 0) === demo);
    expect(withdrawn).toHaveLength(2);
    const burn = BigInt(named(withdrawn[1]!, 1)!);
    const { rows, events } = packed(call.timeMs, call.block);
    const disposal = rows.find((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === burn)!;
    const fee = rows.find((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === feeOf(call.own))!;
    expect(disposal['action']).toBe('dispose');
    expect(Number(disposal['gbp'])).toBeGreaterThan(0);
    expect(disposal['fee_gbp']).toBe(fee['gbp']);
    expect(events.map((r) => r['action'])).toEqual(['registration']);
  });

  it("an EVM round trip: TAO to the coldkey's own EVM address and back is no disposal", async () => {
    const mapped = evmMappedAccount(decodeAddress(demo).slice(0, 20)).address;
    const transfers = demoEvents.filter(
      ({ event }) =>
        event.name === 'Transfer' &&
        (named(event, 1) === mapped || named(event, 0) === mapped) &&
        event.pallet === 'Balances',
    );
    expect(transfers.map(({ timeMs, event }) => [ukDay(timeMs), named(event, 0) === demo])).toEqual([
      ['2026-01-13', true],
      ['2026-01-15', false],
    ]);
    const [out, back] = transfers;
    // All the address held comes back (less what its staking through the precompile cost in between,
    // evm-staking-pack.test.ts).
    const before = await api.at(await api.rpc.chain.getBlockHash(back!.block - 1));
    const had = (await before.query['system']!['account']!(mapped)) as unknown as { data: { free: Codec } };
    expect(named(back!.event, 2)).toBe(had.data.free.toString());
    const amount = BigInt(named(out!.event, 2)!);
    // The mapped account holds the TAO in between.
    const state = await api.at(await api.rpc.chain.getBlockHash(out!.block));
    const held = (await state.query['system']!['account']!(mapped)) as unknown as { data: { free: Codec } };
    expect(held.data.free.toString()).toBe(named(out!.event, 2));
    for (const { block, timeMs, event, all } of transfers) {
      const own = all.filter((e) => e.extrinsicIndex === event.extrinsicIndex);
      const { rows, events } = packed(timeMs, block);
      expect(rows.filter((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === feeOf(own))).toHaveLength(
        1,
      );
      expect(rows.filter((r) => raoOf(r['quantity']!) === amount)).toEqual([]);
      const row = events.find((r) => r['chain_events']!.includes(`Transfer ${block}/${event.index}`))!;
      expect(row['action']).toBe('own-evm');
    }
  });

  it("the TAO pool at the record's end is the chain's free and reserved TAO and root stake", async () => {
    const pools = readCsv(files.get('pools.csv')!);
    const tao = pools.find((r) => r['asset'] === 'TAO' && r['kind'] === 'pool')!;
    const end = dayEnds.get(tao['as_at']!)!;
    const state = await api.at(await api.rpc.chain.getBlockHash(end));
    const account = (await state.query['system']!['account']!(demo)) as unknown as {
      data: { free: Codec; reserved: Codec };
    };
    const info = (await runtimeCall(state, 'stakeInfoRuntimeApi.getStakeInfoForColdkey')(demo)) as Vec<Codec>;
    const root = info
      .filter((p) => field(p, 'netuid').toString() === '0')
      .reduce((sum, p) => sum + BigInt(field(p, 'stake').toString()), 0n);
    const held = BigInt(account.data.free.toString()) + BigInt(account.data.reserved.toString()) + root;
    expect(raoOf(tao['quantity']!)).toBe(held);
  });
});
