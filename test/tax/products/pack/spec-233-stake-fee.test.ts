/**
 * A record that opens before spec 257 (28 March 2025): its stakes' events have five fields, the tao net of the
 * flat 50,000-rao staking fee that no event reports, while the coldkey's free TAO paid the whole amount. The
 * pack must dispose of every rao that left: the TAO its pools hold at the end equals what the chain holds.
 *
 * The world: the sandbox's mainnet magnitudes with its big coldkeys, each block on the runtime mainnet ran that
 * day (spec 233 until 27 March 2025), from 24 March to 13 April 2025 in hour blocks. The staker in 100 subnets
 * adds stake to each every day, so its record holds a hundred spec-233 stakes a day before the 2025/26 year.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Vec } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../../../pipeline/chain/subtensor-extensions.js';
import { type BuiltPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { reconcileHoldings } from '../../../../pipeline/tax/products/reconcile-holdings.js';
import { read, runtimeCall } from '../../../devnet/decorated.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

let world: PackWorld;
let chain: PackChain;
let api: ApiPromise;
let pack: BuiltPack;
let staker: string;

beforeAll(async () => {
  world = await publishPackWorld({
    genesis: new Date('2025-03-24T00:00:00Z'),
    historyDays: 20,
    blockTimeMs: 3_600_000,
    runtimes: 'mainnet',
    magnitudes: 'mainnet',
    eventsPerBlock: null,
    bigColdkeys: true,
  });
  staker = world.devnet.world.stakers.big!.coldkeys.find((c) => c.role === 'wide-staker')!.staker.coldkey
    .address;
  chain = openPackChain(world.devnet.url);
  api = await ApiPromise.create({
    provider: new WsProvider(world.devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
  pack = await buildPackFiles(
    {
      id: 'ord_spec_233',
      sku: 'tax-pack',
      packName: 'UK staking tax pack',
      taxYear: '2025/26',
      coldkeys: [staker],
      paidAt: new Date('2025-04-13T14:00:00Z'),
    },
    { store: world.store, chain: chain.reader },
  );
}, 900_000);

afterAll(async () => {
  await api?.disconnect();
  await chain?.close();
  await world?.close();
});

/** The staker's TAO at a block, read with @polkadot/api alone: free and reserved, and its stake on root. */
async function taoAt(block: number): Promise<bigint> {
  const state = await api.at(await api.rpc.chain.getBlockHash(block));
  const account = (await read(state, 'system.account', staker)) as unknown as {
    data: { free: Codec; reserved: Codec };
  };
  let tao = BigInt(account.data.free.toString()) + BigInt(account.data.reserved.toString());
  const positions = (await runtimeCall(
    state,
    'stakeInfoRuntimeApi.getStakeInfoForColdkey',
  )(staker)) as Vec<Codec>;
  for (const position of positions) {
    const json = position.toJSON() as { netuid: number; stake: number | string };
    if (Number(json.netuid) === 0) tao += BigInt(json.stake);
  }
  return tao;
}

describe('stakes before spec 257, their fee unreported', () => {
  it('the record holds five-field stakes: the chain reports no fee for them', async () => {
    const firstDay = pack.ledger.recordOpening.block;
    const spec233 = pack.ledger.recordEvents
      .map((treated) => treated.event)
      .filter((e) => e.kind === 'StakeAdded' && e.block > firstDay && e.block < pack.ledger.opening.block);
    expect(spec233.length).toBeGreaterThan(100);
    const version = await api.rpc.state.getRuntimeVersion(
      await api.rpc.chain.getBlockHash(spec233[0]!.block),
    );
    expect(version.specVersion.toNumber()).toBeLessThan(257);
  });

  it("the TAO pool at the year's last collected day is what the chain holds, to the RAO", async () => {
    const pools = readCsv(new TextDecoder().decode(pack.files.get('pools.csv')!));
    let pooled = 0n;
    for (const row of pools) {
      if (row['asset'] !== 'TAO' || row['kind'] === 'record-end') continue;
      pooled += (row['kind'] === 'matched-ahead' ? -1n : 1n) * raoOf(row['quantity']!);
    }
    const lastDay = pack.ledger.days[pack.ledger.days.length - 1]!;
    expect(pooled).toBe(await taoAt(lastDay.block));
  });

  it("the days before the year are held to the chain when it opens: nothing unexplained, and one stake's fee left out shows", () => {
    const { ledger } = pack;
    expect(ledger.reconciliation.unexplained).toEqual([]);
    // The days before the year: a stake's fee of 50,000 RAO left out of its TAO disposed of, as before the
    // fee was added back, shows on the year's opening day with its amount.
    const stake = ledger.chainTransactions.find(
      (tx) =>
        tx.asset === 'TAO' &&
        tx.action === 'dispose' &&
        tx.at.getTime() <= ledger.opening.timeMs &&
        tx.ref?.startsWith('event ') &&
        tx.paidAsFee === undefined,
    )!;
    expect(stake).toBeDefined();
    const reconciled = reconcileHoldings({
      coldkeys: ledger.coldkeys,
      opening: ledger.opening,
      days: ledger.days,
      stakes: ledger.stakes,
      others: ledger.otherHoldings,
      income: ledger.income,
      prices: ledger.prices,
      transactions: ledger.chainTransactions.map((tx) =>
        tx === stake ? { ...tx, quantity: tx.quantity.sub('0.00005') } : tx,
      ),
    });
    expect(reconciled.unexplained.map((row) => [row.date, row.asset, row.differenceRao])).toEqual([
      [ledger.opening.date, 'TAO', -50_000n],
    ]);
  });
});
