/**
 * A network's lock and its refund, and two held deposits, on the runtimes mainnet ran in autumn 2025: a world
 * placed by date from 31 August to 14 November 2025 (one-hour blocks), published by the real pipeline, and the
 * demo coldkey's 2025/26 pack built over the real WebSocket. Read from the chain itself (its events, `System.Account`,
 * `SubnetOwner`, `NetworkRegisteredAt` and the pool's reserves), never from the world's own lists:
 * - the demo's `register_network` on 3 September (spec 297's row): the lock leaves its free TAO, it owns the
 *   subnet; the pack disposes of the TAO for the registration, a right, at its value;
 * - root dissolves the subnet on 12 November (spec 343's row): the owner is credited the lock less the owner's
 *   emission at the pool's price, with no event naming it a refund; the pack disposes of the registration for it;
 * - an identity in the Registry pallet (10 September to 5 November: 0.1 TAO held, no event stating it) and a
 *   multisig call's deposit (14 to 16 October): still held, no disposal but their fees;
 * - reconciliation.csv: nothing unexplained on any day, the registration held from its day to the dissolution.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../../pipeline/chain/rpc-client.js';
import type { DecodedEvent } from '../../../../pipeline/chain/runtime-codec.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
import { ColdkeyShard, coldkeyShardOf, taxPaths } from '../../../../pipeline/contract/tax-published.js';
import { readManifest } from '../../../../pipeline/store/manifest.js';
import { readPublishedObject } from '../../../../pipeline/store/publication.js';
import { checkMechanisms } from '../../../../pipeline/tax/products/check-mechanisms.js';
import { buildPack } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2025-08-31T00:00:00Z');

let world: PackWorld;
let chain: PackChain;
let rpc: RpcClient;
let api: ApiPromise;
let files: Map<string, string>;
/** Every block's events, as the chain's metadata decodes them. */
const blocks: Array<{ block: number; timeMs: number; all: DecodedEvent[] }> = [];
let demo: string;

const named = (event: DecodedEvent, i: number) => event.fields[i]?.toString();

beforeAll(async () => {
  world = await sharedPackWorld({
    genesis: GENESIS,
    historyDays: 75,
    blockTimeMs: 3_600_000,
    runtimes: 'mainnet',
  });
  demo = world.devnet.demoColdkey;
  chain = openPackChain(world.devnet.url);
  const zip = await JSZip.loadAsync(
    await buildPack(
      {
        id: 'ord_network_lock',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear: '2025/26',
        coldkeys: [demo],
        paidAt: new Date('2025-11-14T12:00:00Z'),
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
    blocks.push({ block, timeMs, all: (await reader.codecOfBlock(block)).decodeEvents(events) });
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

/** The one extrinsic of the chain with an event `pallet.name` passing `test`, with its own events. */
function extrinsicWith(pallet: string, name: string, test: (e: DecodedEvent) => boolean = () => true) {
  const found = blocks.flatMap(({ block, timeMs, all }) =>
    all
      .filter((e) => e.pallet === pallet && e.name === name && test(e))
      .map((event) => ({
        block,
        timeMs,
        event,
        own: all.filter((e) => e.extrinsicIndex === event.extrinsicIndex),
      })),
  );
  expect(found, `${pallet}.${name}`).toHaveLength(1);
  return found[0]!;
}

const query = async (block: number, item: string, ...keys: unknown[]) => {
  const state = await api.at(await api.rpc.chain.getBlockHash(block));
  return (await state.query['subtensorModule']![item]!(...keys)) as Codec;
};
const account = async (block: number) => {
  const state = await api.at(await api.rpc.chain.getBlockHash(block));
  const info = (await state.query['system']!['account']!(demo)) as unknown as {
    data: { free: Codec; reserved: Codec };
  };
  return { free: BigInt(info.data.free.toString()), reserved: BigInt(info.data.reserved.toString()) };
};
const feeOf = (own: DecodedEvent[]) => {
  const paid = own.find((e) => e.name === 'TransactionFeePaid');
  return paid && named(paid, 0) === demo ? BigInt(named(paid, 1)!) : 0n;
};
/** The pack's rows of cgt-input.csv at an instant, and its events.csv rows of the block. */
const packed = (timeMs: number, block: number) => ({
  rows: readCsv(files.get('cgt-input.csv')!).filter((r) => r['datetime'] === new Date(timeMs).toISOString()),
  events: readCsv(files.get('events.csv')!).filter((r) => r['block'] === String(block)),
});

/** `destroy_alpha_in_out_stakes`'s owner emission (spec 342 on): issuance × 11,796/65,535 at the price, U96F32. */
function ownerEmission(tao: bigint, alphaIn: bigint, alphaOut: bigint): bigint {
  const cut = (11_796n << 32n) / 65_535n;
  const alpha = ((alphaIn + alphaOut) * cut) >> 32n;
  return (alpha * ((tao << 32n) / alphaIn)) >> 32n;
}

const registration = () =>
  extrinsicWith('SubtensorModule', 'NetworkAdded', (e) => {
    const own = blocks
      .find((b) => b.all.includes(e))!
      .all.filter((x) => x.extrinsicIndex === e.extrinsicIndex);
    return feeOf(own) > 0n;
  });

describe("the demo coldkey's network lock and its refund (autumn 2025)", () => {
  it('register_network: the lock leaves the free TAO and the demo owns the subnet; the pack gives the TAO for the registration at its value', async () => {
    const call = registration();
    expect(ukDay(call.timeMs)).toBe('2025-09-03');
    const netuid = Number(named(call.event, 0));
    // The fee's withdrawal, then the lock's, both of the demo (NetworkAdded names no coldkey).
    const withdrawn = call.own.filter((e) => e.name === 'Withdraw' && named(e, 0) === demo);
    expect(withdrawn).toHaveLength(2);
    const lock = BigInt(named(withdrawn[1]!, 1)!);
    expect(lock).toBeGreaterThan(0n);
    expect((await query(call.block, 'subnetOwner', netuid)).toString()).toBe(demo);
    expect((await query(call.block, 'networkRegisteredAt', netuid)).toString()).toBe(String(call.block));
    expect((await query(call.block - 1, 'networkRegisteredAt', netuid)).toString()).not.toBe(
      String(call.block),
    );
    const { rows, events } = packed(call.timeMs, call.block);
    const given = rows.find((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === lock)!;
    const fee = rows.find((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === feeOf(call.own))!;
    expect(given['action']).toBe('dispose');
    expect(Number(given['gbp'])).toBeGreaterThan(0);
    expect(given['fee_gbp']).toBe(fee['gbp']);
    const right = rows.find((r) => r['asset'] === `subnet-lock:${netuid}:${call.block}`)!;
    expect([right['action'], right['quantity']]).toEqual(['acquire', '1']);
    expect(right['gbp']).toBe(given['gbp']);
    const row = events.find((r) => r['chain_events']!.includes(`NetworkRegistered ${call.block}/`))!;
    expect(row['action']).toBe('network-lock');
    expect(row['treatment']).toMatch(/registration.*CRYPTO22100/);
  });

  it("root's dissolution credits the lock less the owner's emission, no event naming it; the pack disposes of the registration for it", async () => {
    const registered = registration();
    const netuid = Number(named(registered.event, 0));
    const lock = BigInt(named(registered.own.filter((e) => e.name === 'Withdraw')[1]!, 1)!);
    const call = extrinsicWith('SubtensorModule', 'NetworkRemoved', (e) => named(e, 0) === String(netuid));
    expect(ukDay(call.timeMs)).toBe('2025-11-12');
    // Root's call: the demo pays no fee; its only credit is the refund, before NetworkRemoved.
    expect(feeOf(call.own)).toBe(0n);
    const credits = call.own.filter((e) => e.name === 'Deposit' && named(e, 0) === demo);
    expect(credits).toHaveLength(1);
    expect(credits[0]!.index).toBeLessThan(call.event.index);
    const refund = BigInt(named(credits[0]!, 1)!);
    // The refund as the runtime computes it from the subnet's pool the block before.
    const before = call.block - 1;
    const [tao, alphaIn, alphaOut] = await Promise.all(
      ['subnetTAO', 'subnetAlphaIn', 'subnetAlphaOut'].map(async (item) =>
        BigInt((await query(before, item, netuid)).toString()),
      ),
    );
    expect(refund).toBe(lock - ownerEmission(tao!, alphaIn!, alphaOut!));
    expect(refund).toBeLessThan(lock);
    const after = await account(call.block);
    expect(after.free - (await account(before)).free).toBe(refund);
    expect((await query(call.block, 'networkRegisteredAt', netuid)).toString()).toBe('0');
    const { rows, events } = packed(call.timeMs, call.block);
    const asset = `subnet-lock:${netuid}:${registered.block}`;
    const disposed = rows.find((r) => r['asset'] === asset)!;
    const received = rows.find((r) => r['asset'] === 'TAO' && raoOf(r['quantity']!) === refund)!;
    expect([disposed['action'], disposed['quantity'], received['action']]).toEqual([
      'dispose',
      '1',
      'acquire',
    ]);
    expect(disposed['gbp']).toBe(received['gbp']);
    const disposal = readCsv(files.get('disposals.csv')!).find((d) => d['asset'] === asset)!;
    expect(disposal['date']).toBe('2025-11-12');
    expect(disposal['proceeds_gbp']).toBe(received['gbp']);
    const cost = readCsv(files.get('cgt-input.csv')!).find(
      (r) => r['asset'] === asset && r['action'] === 'acquire',
    )!;
    expect(Number(disposal['cost_gbp'])).toBeCloseTo(Number(cost['gbp']), 6);
    const row = events.find((r) => r['action'] === 'network-lock')!;
    expect(row['treatment']).toMatch(/lock refunded/);
  });

  it('an identity (held, no event stating it) and a multisig deposit are still held: no disposal but their fees', async () => {
    const steps = [
      ['Registry', 'IdentitySet', '2025-09-10', 100_000_000n],
      ['Multisig', 'NewMultisig', '2025-10-14', 196_000_000n],
      ['Multisig', 'MultisigExecuted', '2025-10-16', -196_000_000n],
      ['Registry', 'IdentityDissolved', '2025-11-05', -100_000_000n],
    ] as const;
    for (const [pallet, name, day, held] of steps) {
      const call = extrinsicWith(pallet, name);
      expect(ukDay(call.timeMs), name).toBe(day);
      // System.Account's reserved moves by the deposit at the call's block, and the free TAO the other way.
      const [before, after] = [await account(call.block - 1), await account(call.block)];
      expect(after.reserved - before.reserved, name).toBe(held);
      const fee = feeOf(call.own);
      // The identity's hold has no Balances event; the multisig's deposit is Reserved and Unreserved.
      const balances = call.own.filter((e) => e.pallet === 'Balances' && named(e, 0) === demo);
      expect(
        balances
          .filter((e) => e.name === 'Reserved' || e.name === 'Unreserved')
          .map((e) => BigInt(named(e, 1)!)),
        name,
      ).toEqual(pallet === 'Registry' ? [] : [held < 0n ? -held : held]);
      // Only the execution is not the demo's call: the co-signer's.
      expect(fee > 0n, name).toBe(name !== 'MultisigExecuted');
      const { rows, events } = packed(call.timeMs, call.block);
      expect(
        rows.filter((r) => raoOf(r['quantity']!) === (held < 0n ? -held : held)),
        name,
      ).toEqual([]);
      const row = events.find((r) => r['chain_events']!.includes(`${call.block}/`) && r['coldkey'] === demo);
      if (pallet === 'Registry') expect(row?.['action'], name).toBe('fee');
      else
        expect([row?.['action'], row?.['treatment']], name).toEqual([
          'deposit',
          expect.stringMatching(/still held/),
        ]);
    }
  });

  it('reconciliation.csv: nothing unexplained on any day; the registration held from its day until the dissolution', () => {
    const rows = readCsv(files.get('reconciliation.csv')!);
    const assetRows = rows.filter((r) => r['level'] === 'asset');
    expect(assetRows.length).toBeGreaterThan(70);
    expect(assetRows.filter((r) => r['difference'] !== '0')).toEqual([]);
    const registered = registration();
    const asset = `subnet-lock:${named(registered.event, 0)}:${registered.block}`;
    const held = assetRows.filter((r) => r['asset'] === asset);
    expect(held.find((r) => r['date'] === '2025-09-03')?.['closing']).toBe('1');
    expect(held.find((r) => r['date'] === '2025-11-11')?.['closing']).toBe('1');
    expect(held.find((r) => r['date'] === '2025-11-12')?.['closing']).toBe('0');
    // The identity's hold shows as the demo's reserved TAO on the days it stood.
    const reserved = rows.filter((r) => r['level'] === 'holding' && r['holding'] === 'reserved');
    expect(reserved.find((r) => r['date'] === '2025-09-20')?.['closing']).toBe('0.1');
  });

  it("the free check names the network registration, the refund (as a dissolved subnet's payout) and the multisig deposit", async () => {
    const manifest = (await readManifest(world.store, ''))!;
    const shard = await readPublishedObject(
      world.store,
      manifest,
      taxPaths.coldkeyShard(coldkeyShardOf(demo)),
    );
    const events = ColdkeyShard.parse(JSON.parse(new TextDecoder().decode(shard!.body))).coldkeys[demo] ?? [];
    const found = checkMechanisms(demo, events, world.nowMs, null).mechanisms.filter(
      (m) => m.tax_year === '2025/26',
    );
    const of = (id: string) => found.find((m) => m.mechanism === id);
    expect(of('network_registration')).toMatchObject({
      count: 1,
      first_day: '2025-09-03',
      last_day: '2025-09-03',
      in_pack: 'booked',
    });
    expect(of('network_registration')!.name).toMatch(/Network registration/);
    expect(of('dissolution')).toMatchObject({ count: 1, first_day: '2025-11-12' });
    expect(of('reserved_deposit')).toMatchObject({
      count: 2,
      first_day: '2025-10-14',
      last_day: '2025-10-16',
    });
  });
});
