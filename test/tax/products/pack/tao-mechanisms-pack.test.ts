/**
 * The TAO side of what a staker's 2025/26 ran beside staking, on the runtimes mainnet ran then: a world placed
 * by date from 1 January to 31 January 2026 (spec 343, one-hour blocks), published by the real pipeline, and
 * the demo coldkey's 2025/26 pack built over the real WebSocket. Read from the chain itself (its events and
 * `System.Account`, `StakeInfoRuntimeApi`), never from the world's own lists:
 * - transaction fees: every call the demo coldkey signed paid its fee from its free TAO, and each fee is a
 *   disposal of that TAO in the pack;
 * - the pack's TAO pool at the record's end is what the chain holds: free and reserved TAO and root stake.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../../pipeline/chain/rpc-client.js';
import type { DecodedEvent } from '../../../../pipeline/chain/runtime-codec.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
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
      // Withdrawn first in the extrinsic; burned before spec 378 (no author's deposit).
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
