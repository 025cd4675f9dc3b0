/**
 * Staking through the EVM staking precompile, on the runtime mainnet ran in January 2026 (spec 343): a world
 * placed by date from 1 to 31 January 2026 (one-hour blocks), published by the real pipeline, the demo
 * coldkey's 2025/26 pack built over the real WebSocket. The demo sends TAO to its own EVM address (13 January),
 * that address stakes half of it through `StakingPrecompileV2` the same day, holds it over a day and more of
 * emissions, unstakes it all (15 January) and the coldkey draws the TAO back. Read from the chain itself (its
 * events, `System.Account` and `StakeInfoRuntimeApi`), never from the world's own lists:
 * - the stake's coldkey is the address's mapped account `blake2_256("evm:" ++ address)`, in an unsigned
 *   `Ethereum.transact` naming the precompile 0x…0805, with no `TransactionFeePaid`;
 * - the pack books the stake and the unstake as any (TAO exchanged for alpha and back);
 * - the emissions on that position are income of their UK days, as the chain's stake grew;
 * - reconciliation.csv holds the position against the chain each day, 0 RAO unexplained.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { u8aToHex } from '@polkadot/util';
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
const PRECOMPILE_V2 = '0x0000000000000000000000000000000000000805';

let world: PackWorld;
let chain: PackChain;
let rpc: RpcClient;
let api: ApiPromise;
let files: Map<string, string>;
let demo: string;
let mapped: string;
/** The mapped account's stake calls: the extrinsic's events, its block and time. */
const calls: Array<{ block: number; timeMs: number; event: DecodedEvent; own: DecodedEvent[] }> = [];
/** The last block of each UK day the chain has. */
const dayEnds = new Map<string, number>();

const named = (event: DecodedEvent, i: number) => event.fields[i]?.toString();

beforeAll(async () => {
  world = await sharedPackWorld({
    genesis: GENESIS,
    historyDays: 30,
    blockTimeMs: 3_600_000,
    runtimes: 'mainnet',
  });
  demo = world.devnet.demoColdkey;
  mapped = evmMappedAccount(decodeAddress(demo).slice(0, 20)).address;
  chain = openPackChain(world.devnet.url);
  const zip = await JSZip.loadAsync(
    await buildPack(
      {
        id: 'ord_evm_staking',
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
      if ((event.name === 'StakeAdded' || event.name === 'StakeRemoved') && named(event, 0) === mapped) {
        calls.push({
          block,
          timeMs,
          event,
          own: all.filter((e) => e.extrinsicIndex === event.extrinsicIndex),
        });
      }
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

/** The mapped account's stake on (hotkey, netuid) at `block`, as `get_stake_info_for_coldkey` lists it. */
async function stakeAt(block: number, hotkey: string, netuid: number): Promise<bigint> {
  const at = await api.at(await api.rpc.chain.getBlockHash(block));
  const infos = (await runtimeCall(at, 'stakeInfoRuntimeApi.getStakeInfoForColdkey')(mapped)) as Vec<Codec>;
  return infos
    .filter(
      (i) => field(i, 'hotkey').toString() === hotkey && Number(field(i, 'netuid').toString()) === netuid,
    )
    .reduce((sum, i) => sum + BigInt(field(i, 'stake').toString()), 0n);
}

describe("the demo coldkey's stake through its own EVM address (StakingPrecompileV2, spec 343)", () => {
  it("the chain: the stake's coldkey is the EVM address's mapped account, in an Ethereum transaction to 0x…0805", async () => {
    expect(calls.map(({ timeMs, event }) => [ukDay(timeMs), event.name])).toEqual([
      ['2026-01-13', 'StakeAdded'],
      ['2026-01-15', 'StakeRemoved'],
    ]);
    for (const { own } of calls) {
      const executed = own.find((e) => e.pallet === 'Ethereum' && e.name === 'Executed')!;
      expect(named(executed, 0)).toBe(u8aToHex(decodeAddress(demo).slice(0, 20)));
      expect(named(executed, 1)).toBe(PRECOMPILE_V2);
      expect(own.some((e) => e.name === 'TransactionFeePaid')).toBe(false);
    }
    const [added, removed] = calls;
    const hotkey = named(added!.event, 1)!;
    const netuid = Number(named(added!.event, 4));
    expect(await stakeAt(added!.block - 1, hotkey, netuid)).toBe(0n);
    // The alpha bought, as the V1 share arithmetic holds it (floored: at most a rao under the event's).
    const held = await stakeAt(added!.block, hotkey, netuid);
    expect(BigInt(named(added!.event, 3)!) - held).toBeGreaterThanOrEqual(0n);
    expect(BigInt(named(added!.event, 3)!) - held).toBeLessThanOrEqual(1n);
    // It grew while held, and all of it was unstaked.
    expect(await stakeAt(removed!.block - 1, hotkey, netuid)).toBe(BigInt(named(removed!.event, 3)!));
    expect(BigInt(named(removed!.event, 3)!)).toBeGreaterThan(BigInt(named(added!.event, 3)!));
    expect(await stakeAt(removed!.block, hotkey, netuid)).toBe(0n);
  });

  it('the pack: the stake and the unstake are booked as any, TAO exchanged for alpha and back', async () => {
    const input = readCsv(files.get('cgt-input.csv')!);
    const events = readCsv(files.get('events.csv')!);
    for (const { block, timeMs, event } of calls) {
      const ref = `${event.name} ${block}/${event.index}`;
      const row = events.find((r) => r['chain_events']!.includes(ref));
      expect(row?.['coldkey'], ref).toBe(mapped);
      expect(row?.['action'], ref).toBe(event.name === 'StakeAdded' ? 'stake' : 'unstake');
      const at = input.filter((r) => r['datetime'] === new Date(timeMs).toISOString());
      const tao = BigInt(named(event, 2)!);
      // A stake acquires the alpha the position rose by (the share arithmetic's floor), an unstake disposes of
      // the alpha its event states.
      const hotkey = named(event, 1)!;
      const netuid = Number(named(event, 4));
      const alpha =
        event.name === 'StakeAdded'
          ? (await stakeAt(block, hotkey, netuid)) - (await stakeAt(block - 1, hotkey, netuid))
          : BigInt(named(event, 3)!);
      const fee = BigInt(named(event, 5)!);
      const alphaRows = at.filter((r) => r['asset'] !== 'TAO');
      const taoRows = at.filter((r) => r['asset'] === 'TAO');
      if (event.name === 'StakeAdded') {
        expect(
          taoRows.map((r) => [r['action'], raoOf(r['quantity']!)]),
          ref,
        ).toEqual([['dispose', tao]]);
        expect(
          alphaRows.map((r) => [r['action'], raoOf(r['quantity']!)]),
          ref,
        ).toEqual([['acquire', alpha]]);
      } else {
        expect(
          alphaRows.map((r) => [r['action'], raoOf(r['quantity']!)]),
          ref,
        ).toEqual([['dispose', alpha]]);
        expect(
          taoRows.map((r) => [r['action'], raoOf(r['quantity']!)]),
          ref,
        ).toEqual([['acquire', tao]]);
      }
      expect(fee).toBeGreaterThan(0n);
    }
  });

  it("the emissions on the EVM address's stake are income of their UK days, as the chain's stake grew", async () => {
    const [added, removed] = calls;
    const hotkey = named(added!.event, 1)!;
    const netuid = Number(named(added!.event, 4));
    const income = readCsv(files.get('income.csv')!).filter((r) => r['coldkey'] === mapped);
    // The whole UK day of 14 January held it: its income is the stake's rise between the day ends.
    const grew =
      (await stakeAt(dayEnds.get('2026-01-14')!, hotkey, netuid)) -
      (await stakeAt(dayEnds.get('2026-01-13')!, hotkey, netuid));
    expect(grew).toBeGreaterThan(0n);
    const day = income.filter((r) => r['date'] === '2026-01-14');
    expect(day.map((r) => [r['hotkey'], r['netuid'], raoOf(r['alpha']!)])).toEqual([
      [hotkey, String(netuid), grew],
    ]);
    expect(Number(day[0]!['gbp'])).toBeGreaterThan(0);
    // In all: what was unstaked less what was staked.
    const total = income.reduce((sum, r) => sum + raoOf(r['alpha']!), 0n);
    expect(total).toBe(BigInt(named(removed!.event, 3)!) - (await stakeAt(added!.block, hotkey, netuid)));
    expect(new Set(income.map((r) => r['date']))).toEqual(new Set(['2026-01-14', '2026-01-15']));
  });

  it("reconciliation.csv: the EVM address's position and TAO held against the chain, 0 RAO unexplained", async () => {
    const rows = readCsv(files.get('reconciliation.csv')!);
    const [added] = calls;
    const hotkey = named(added!.event, 1)!;
    const netuid = Number(named(added!.event, 4));
    const position = rows.filter(
      (r) => r['level'] === 'holding' && r['coldkey'] === mapped && r['holding'] === hotkey,
    );
    expect(position.map((r) => r['date'])).toEqual(['2026-01-13', '2026-01-14', '2026-01-15']);
    for (const row of position) {
      expect(raoOf(row['closing']!), row['date']).toBe(await stakeAt(Number(row['block']), hotkey, netuid));
    }
    const asset = rows.filter((r) => r['level'] === 'asset');
    expect(asset.length).toBeGreaterThan(30);
    expect(asset.filter((r) => raoOf(r['difference']!) !== 0n)).toEqual([]);
    // The TAO on the address is read once: as the mapped account's free TAO, not again as the demo's `evm`.
    const taoHeld = rows.filter(
      (r) => r['level'] === 'holding' && r['coldkey'] === mapped && r['holding'] === 'free',
    );
    const at13 = await api.at(await api.rpc.chain.getBlockHash(dayEnds.get('2026-01-13')!));
    const account = (await at13.query['system']!['account']!(mapped)) as unknown as { data: { free: Codec } };
    expect(taoHeld.find((r) => r['date'] === '2026-01-13')?.['closing']).toBeDefined();
    expect(raoOf(taoHeld.find((r) => r['date'] === '2026-01-13')!['closing']!)).toBe(
      BigInt(account.data.free.toString()),
    );
    expect(rows.filter((r) => r['holding'] === 'evm')).toEqual([]);
  });
});
