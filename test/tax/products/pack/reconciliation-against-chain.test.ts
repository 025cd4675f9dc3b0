/**
 * The daily reconciliation held to an independent read of the chain, on the dated world of both tax years
 * (the world `dated-years-pack.test.ts` uses, shared with it): each coldkey's holdings read at every UK day's
 * last block with @polkadot/api (System.Account free and reserved, the runtime's
 * `getStakeInfoForColdkey`, `NetworkRegisteredAt` for the asset of each subnet, `SubnetOwner` for a network the
 * coldkey registered), not the pack's reader and
 * not the sandbox's truth. Every day of 2025/26 and 2026/27 must reconcile to the RAO, the reconciliation's
 * holdings must be these, and the year-end holdings must equal pools.csv less its matched-ahead rows. A
 * booked movement taken away must show as a difference of its amount on its day.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { stringToU8a, u8aConcat } from '@polkadot/util';
import { blake2AsU8a, decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
import type { TaxYearLedger } from '../../../../pipeline/tax/products/compute-tax-year.js';
import { readCustomerFiles } from '../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { type BuiltPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { reconcileHoldings } from '../../../../pipeline/tax/products/reconcile-holdings.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { read, runtimeCall } from '../../../devnet/decorated.js';
import { sharedPackWorld } from '../../../support/shared-pack-world.js';
import type { PackWorld } from './pack-world.js';
import { pdfToText } from './pdf-text.js';
import { raoOf, readCsv } from './read-pack-csv.js';

/** The world of dated-years-pack.test.ts: the same options, so one build serves both files. */
const WORLD = { genesis: new Date('2025-04-04T00:00:00Z'), historyDays: 602, blockTimeMs: 3_600_000 };

let world: PackWorld;
let chain: PackChain;
let api: ApiPromise;
const packs = new Map<string, BuiltPack>();

beforeAll(async () => {
  world = await sharedPackWorld(WORLD);
  chain = openPackChain(world.devnet.url);
  api = await ApiPromise.create({
    provider: new WsProvider(world.devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
  const order = (taxYear: string) => ({
    id: `ord_${taxYear.replace('/', '_')}`,
    sku: 'tax-pack' as const,
    packName: 'UK staking tax pack',
    taxYear,
    coldkeys: [world.devnet.demoColdkey],
    paidAt: new Date('2026-11-27T14:00:00Z'),
  });
  const first = await buildPackFiles(order('2025/26'), { store: world.store, chain: chain.reader });
  packs.set('2025/26', first);
  // The next year opened from this year's pools.csv, as a buyer does.
  const pools = first.files.get('pools.csv')!;
  const opening = readCustomerFiles([{ name: 'pools.csv', bytes: pools, role: 'opening' }]);
  packs.set(
    '2026/27',
    await buildPackFiles(order('2026/27'), { store: world.store, chain: chain.reader }, opening),
  );
}, 1_200_000);

afterAll(async () => {
  await api?.disconnect();
  await chain?.close();
  await world?.close();
});

const text = (pack: BuiltPack, name: Parameters<BuiltPack['files']['get']>[0]) =>
  new TextDecoder().decode(pack.files.get(name)!);

/** A storage map's `entries()` as @polkadot/api decorates it. */
type StorageEntries = { entries: () => Promise<Array<[{ args: Codec[] }, Codec]>> };

/** What the chain holds of each asset for the coldkeys at a block, read with @polkadot/api alone. */
async function holdingsAt(block: number, coldkeys: readonly string[]): Promise<Map<string, bigint>> {
  const state = await api.at(await api.rpc.chain.getBlockHash(block));
  const assets = new Map<string, bigint>();
  const add = (asset: string, rao: bigint) => assets.set(asset, (assets.get(asset) ?? 0n) + rao);
  const registered = new Map<number, number>();
  for (const coldkey of coldkeys) {
    const account = (await read(state, 'system.account', coldkey)) as unknown as {
      data: { free: Codec; reserved: Codec };
    };
    add('TAO', BigInt(account.data.free.toString()) + BigInt(account.data.reserved.toString()));
    // Its own EVM address (its public key's first 20 bytes), whose TAO the runtime keeps in the account
    // blake2_256("evm:" ++ address).
    // An account that staked through the EVM is a coldkey of the record itself: each account is read once.
    const evm = blake2AsU8a(u8aConcat(stringToU8a('evm:'), decodeAddress(coldkey).slice(0, 20)), 256);
    if (!coldkeys.includes(encodeAddress(evm, 42))) {
      const evmAccount = (await read(state, 'system.account', evm)) as unknown as { data: { free: Codec } };
      add('TAO', BigInt(evmAccount.data.free.toString()));
    }
    // Crowdloan contributions and user liquidity positions, where the block's runtime has them.
    const query = state.query as unknown as Record<string, Record<string, StorageEntries> | undefined>;
    for (const [key, value] of (await query['crowdloan']?.['contributions']?.entries()) ?? []) {
      const [id, contributor] = key.args.map((arg) => arg.toString());
      if (contributor === coldkey) add(`crowdloan:${id}`, BigInt(value.toString()));
    }
    for (const [key, value] of (await query['swap']?.['positions']?.entries()) ?? []) {
      const [netuid, owner, id] = key.args.map((arg) => arg.toString());
      const liquidity = (value.toJSON() as { liquidity?: number | string } | null)?.liquidity;
      if (owner === coldkey && liquidity !== undefined) add(`liquidity:${netuid}:${id}`, BigInt(liquidity));
    }
    // A network the coldkey registered: the registration, quantity one, while it owns the subnet.
    for (const [key, owner] of (await query['subtensorModule']?.['subnetOwner']?.entries()) ?? []) {
      if (owner.toString() !== coldkey) continue;
      const netuid = Number(key.args[0]!.toString());
      const at = await read(state, 'subtensorModule.networkRegisteredAt', netuid);
      add(`subnet-lock:${netuid}:${at.toString()}`, 1_000_000_000n);
    }
    const positions = (await runtimeCall(
      state,
      'stakeInfoRuntimeApi.getStakeInfoForColdkey',
    )(coldkey)) as Vec<Codec>;
    for (const position of positions) {
      const json = position.toJSON() as { netuid: number; stake: number | string };
      const netuid = Number(json.netuid);
      const stake = BigInt(json.stake);
      if (stake === 0n) continue;
      if (netuid === 0) {
        add('TAO', stake);
        continue;
      }
      if (!registered.has(netuid)) {
        const at = await read(state, 'subtensorModule.networkRegisteredAt', netuid);
        registered.set(netuid, Number(at.toString()));
      }
      add(`alpha:${netuid}:${registered.get(netuid)}`, stake);
    }
  }
  return assets;
}

/** The block's time (`Timestamp.Now`), read with @polkadot/api. */
async function timeOf(block: number): Promise<number> {
  const state = await api.at(await api.rpc.chain.getBlockHash(block));
  return Number((await read(state, 'timestamp.now')).toString());
}

/** The independent read of every day of a year: each day's block checked as its UK day's last, then its holdings. */
async function readYear(ledger: TaxYearLedger): Promise<Map<string, Map<string, bigint>>> {
  const read = new Map<string, Map<string, bigint>>();
  for (const day of [ledger.opening, ...ledger.days]) {
    expect(ukDay(await timeOf(day.block))).toBe(day.date);
    expect(ukDay(await timeOf(day.block + 1)) > day.date).toBe(true);
    read.set(day.date, await holdingsAt(day.block, ledger.coldkeys));
  }
  return read;
}

describe.each(['2025/26', '2026/27'])('%s: the daily reconciliation against an independent read', (year) => {
  it('every UK day reconciles to the RAO, and its holdings are those the chain reports', async () => {
    const { ledger } = packs.get(year)!;
    const reconciliation = ledger.reconciliation;
    expect(reconciliation.days).toBe(ledger.days.length);
    expect(ledger.days.length).toBeGreaterThan(200);
    const unexplained = reconciliation.rows.filter((row) => row.differenceRao !== 0n);
    expect(unexplained.map((row) => `${row.date} ${row.asset} ${row.differenceRao}`)).toEqual([]);
    expect(reconciliation.unexplained).toEqual([]);

    const chainRead = await readYear(ledger);
    let previous = chainRead.get(ledger.opening.date)!;
    for (const day of ledger.days) {
      const closing = chainRead.get(day.date)!;
      const rows = reconciliation.rows.filter((row) => row.date === day.date);
      const assets = new Set([...previous.keys(), ...closing.keys()]);
      for (const asset of assets) {
        if ((previous.get(asset) ?? 0n) === 0n && (closing.get(asset) ?? 0n) === 0n) continue;
        const row = rows.find((r) => r.asset === asset);
        expect(row, `${day.date} ${asset}`).toBeDefined();
        expect([day.date, asset, row!.openingRao, row!.closingRao]).toEqual([
          day.date,
          asset,
          previous.get(asset) ?? 0n,
          closing.get(asset) ?? 0n,
        ]);
      }
      for (const row of rows) {
        expect([row.date, row.asset, row.closingRao]).toEqual([
          day.date,
          row.asset,
          closing.get(row.asset) ?? 0n,
        ]);
      }
      previous = closing;
    }

    // The year's last day: pools.csv less its matched-ahead rows is what the chain holds.
    const pack = packs.get(year)!;
    const pools = readCsv(text(pack, 'pools.csv'));
    const held = new Map<string, bigint>();
    for (const row of pools) {
      if (row['kind'] === 'record-end') continue;
      const sign = row['kind'] === 'matched-ahead' ? -1n : 1n;
      held.set(row['asset']!, (held.get(row['asset']!) ?? 0n) + sign * raoOf(row['quantity']!));
    }
    const yearEnd = chainRead.get(ledger.days[ledger.days.length - 1]!.date)!;
    const nonZero = (map: Map<string, bigint>) => new Map([...map].filter(([, rao]) => rao !== 0n).sort());
    expect(nonZero(held)).toEqual(nonZero(yearEnd));
  }, 600_000);

  it('reconciliation.csv, README.txt and the PDF say every day reconciled', async () => {
    const pack = packs.get(year)!;
    const rows = readCsv(text(pack, 'reconciliation.csv'));
    const assetRows = rows.filter((row) => row['level'] === 'asset');
    expect(assetRows.length).toBe(pack.ledger.reconciliation.rows.length);
    expect(new Set(assetRows.map((row) => row['difference']))).toEqual(new Set(['0']));
    expect(new Set(assetRows.map((row) => row['explanation']))).toEqual(new Set(['reconciled']));
    // Each asset row's opening, booked and closing add up; its holdings add up to its closing.
    for (const [i, row] of rows.entries()) {
      if (row['level'] !== 'asset') continue;
      expect(raoOf(row['opening']!) + raoOf(row['booked']!)).toBe(raoOf(row['closing']!));
      let sum = 0n;
      for (const h of rows.slice(i + 1)) {
        if (h['level'] !== 'holding') break;
        sum += raoOf(h['closing']!);
      }
      expect(sum).toBe(raoOf(row['closing']!));
    }
    const reconciled = `Every day reconciled, 0 RAO unexplained: on each of the ${pack.ledger.days.length} UK days`;
    expect(text(pack, 'README.txt')).toContain(reconciled);
    const dir = await mkdtemp(join(tmpdir(), 'sbm-reconciliation-pdf-'));
    try {
      const pdf = pdfToText(pack.files.get('summary.pdf')!, dir).replace(/\s+/g, ' ');
      expect(pdf).toContain('Reconciliation with the chain');
      expect(pdf).toContain(reconciled);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a movement the pack did not book', () => {
  it("is a point to check on its day, with its amount: the chain's holdings are not absorbed", () => {
    const { ledger } = packs.get('2025/26')!;
    const input = {
      coldkeys: ledger.coldkeys,
      opening: ledger.opening,
      days: ledger.days,
      stakes: ledger.stakes,
      others: ledger.otherHoldings,
      income: ledger.income,
      prices: ledger.prices,
    };
    // Without one transaction fee (its own disposal of TAO) and without one day's income.
    const inYear = (tx: TaxYearLedger['chainTransactions'][number]) =>
      tx.at.getTime() > ledger.opening.timeMs &&
      tx.at.getTime() <= ledger.days[ledger.days.length - 1]!.timeMs;
    const fee = ledger.chainTransactions.find(
      (tx) => inYear(tx) && tx.asset === 'TAO' && tx.action === 'dispose' && tx.paidAsFee !== undefined,
    )!;
    const income = ledger.chainTransactions.find(
      (tx) => inYear(tx) && tx.kind === 'income' && tx.asset.startsWith('alpha:'),
    )!;
    expect(fee).toBeDefined();
    expect(income).toBeDefined();
    const dropped = reconcileHoldings({
      ...input,
      transactions: ledger.chainTransactions.filter((tx) => tx !== fee && tx !== income),
    });
    const rao = (tx: typeof fee) => BigInt(tx.quantity.mul(1_000_000_000).toFixed(0));
    expect(
      dropped.unexplained.map((row) => [row.date, row.asset, row.differenceRao, row.unexplained]),
    ).toEqual(
      [
        [ukDay(fee.at.getTime()), 'TAO', -rao(fee), true],
        [ukDay(income.at.getTime()), income.asset, rao(income), true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    for (const row of dropped.unexplained) {
      expect(row.explanation).toMatch(/^unexplained/);
      expect(row.differenceGbp?.isZero()).toBe(false);
    }
  });
});
