/**
 * Issue 25's done-when on the sandbox's spec 425 (): the demo coldkey lives, in the tax year,
 * through a move within a subnet and one across subnets, a stake transfer to another coldkey, a recycle, a fee
 * paid in alpha, an auto-stake, a root claim, a hotkey swap of its validator, a subnet dissolution with a
 * payout and a coldkey swap to a successor; shares are written to AlphaV2 from the upgrade. The pack, built
 * over the real WebSocket from what the real pipeline published, is held against the sandbox's truth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subnetOfAccount } from '../../../../pipeline/chain/subnet-account.js';
import { buildTruth, type Truth } from '../../../../pipeline/devnet/index.js';
import { positionId, readStakesAtBlocks } from '../../../../pipeline/tax/chain-record/stake-at-blocks.js';
import { type BuiltPack, buildPackFiles } from '../../../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain, type PackChain } from '../../../../pipeline/tax/products/pack/pack-chain.js';
import { GbpPrices } from '../../../../pipeline/tax/uk-rules/gbp-prices.js';
import { gbpOfTaoRao } from '../../../../pipeline/tax/uk-rules/income-ledger.js';
import { addDays } from '../../../../pipeline/time/utc-day.js';
import { rerunCgtInput } from './cgt-rerun.js';
import { type PackWorld, publishPackWorld } from './pack-world.js';
import { raoOf, readCsv } from './read-pack-csv.js';

const GENESIS = new Date('2026-01-01T00:00:00Z');
const HISTORY_DAYS = 30;
const BLOCK_MS = 600_000;
const BLOCKS_PER_DAY = 86_400_000 / BLOCK_MS;
/** Noon of day 17: the life events fall on days 18 to 24, inside the 2025/26 tax year and the record. */
const SPEC_425_BLOCK = 17 * BLOCKS_PER_DAY + BLOCKS_PER_DAY / 2;
/**
 * The UK days the pack must cover, from what the test knows, not from the pack: the 2025/26 tax year and
 * the record's collected days (genesis to the last whole day before the world's clock), less the first
 * (the record opens at its end: holdings, not income). Winter: UK days are UTC days.
 */
const FIRST_DAY = addDays(GENESIS.toISOString().slice(0, 10), 1);
const LAST_DAY = addDays(GENESIS.toISOString().slice(0, 10), HISTORY_DAYS - 1);
const inWindow = (date: string) =>
  date >= FIRST_DAY && date <= LAST_DAY && date >= '2025-04-06' && date <= '2026-04-05';

let world: PackWorld;
let chain: PackChain;
let truth: Truth;
let pack: BuiltPack;
let files: Map<string, string>;
let demo: string;

beforeAll(async () => {
  world = await publishPackWorld({
    genesis: GENESIS,
    historyDays: HISTORY_DAYS,
    blockTimeMs: BLOCK_MS,
    spec425Block: SPEC_425_BLOCK,
  });
  chain = openPackChain(world.devnet.url);
  demo = world.devnet.demoColdkey;
  const finalizedNow = world.nowMs - world.options.finalityLag * BLOCK_MS;
  truth = buildTruth(
    { ...world.options, now: () => finalizedNow },
    GENESIS.toISOString().slice(0, 10),
    new Date(world.nowMs).toISOString().slice(0, 10),
  );
  pack = await buildPackFiles(
    {
      id: 'ord_current',
      sku: 'tax-pack',
      packName: 'UK staking tax pack',
      taxYear: '2025/26',
      coldkeys: [demo],
      paidAt: new Date('2026-02-01T09:30:00Z'),
    },
    { store: world.store, chain: chain.reader },
  );
  files = new Map([...pack.files].map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));
}, 600_000);

afterAll(async () => {
  await chain?.close();
  await world?.close();
});

const truthActions = (kind: string) =>
  truth.actions.filter((a) => a.action === kind && a.block > SPEC_425_BLOCK);
const treatmentsAt = (block: number) => pack.ledger.mapping.events.filter((t) => t.action.block === block);

describe('the pack on spec 425', () => {
  it('lives through every case of the issue (the sandbox did its part)', () => {
    const kinds = new Set(truth.actions.map((a) => a.action));
    for (const kind of [
      'move-within-subnet',
      'move-across-subnets',
      'stake-transfer',
      'recycle',
      'hotkey-swap',
      'dissolution',
      'coldkey-swap',
      'auto-stake',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it('follows the coldkey swap to the successor', () => {
    const successor = truth.coldkeys.find((c) => c.successor_of === demo)?.coldkey;
    expect(successor).toBeDefined();
    expect(pack.inputs.coldkeys).toEqual([demo, successor]);
  });

  it('has income per UK day and position equal to the truth, exactly in RAO', () => {
    const income = readCsv(files.get('income.csv')!);
    const packed = new Map(
      income.map((row) => [
        `${row['coldkey']}|${row['date']}|${row['hotkey']}|${row['netuid']}`,
        raoOf(row['alpha']!),
      ]),
    );
    const expected = new Map<string, bigint>();
    for (const coldkey of truth.coldkeys.filter((c) => pack.inputs.coldkeys.includes(c.coldkey))) {
      for (const day of coldkey.days) {
        if (!inWindow(day.date)) continue;
        for (const p of day.income)
          expected.set(`${coldkey.coldkey}|${day.date}|${p.hotkey}|${p.netuid}`, BigInt(p.alpha_rao));
      }
    }
    expect(new Map([...packed].sort())).toEqual(new Map([...expected].sort()));
  });

  it('books each extrinsic once: at most one disposal per asset per action', () => {
    for (const treated of pack.ledger.mapping.events) {
      const disposed = treated.transactions.filter((tx) => tx.action === 'dispose').map((tx) => tx.asset);
      expect(new Set(disposed).size, `${treated.action.kind} at ${treated.action.block}`).toBe(
        disposed.length,
      );
    }
  });

  it('books nothing for a move within a subnet, a hotkey swap or a coldkey swap', () => {
    const quiet = [...truthActions('move-within-subnet'), ...truthActions('coldkey-swap')];
    expect(quiet.length).toBeGreaterThan(0);
    for (const action of quiet) {
      const treated = treatmentsAt(action.block);
      expect(treated.length, `${action.action} ${action.block}`).toBeGreaterThan(0);
      // Nothing but what the move's or swap's share arithmetic lost or added (a few RAO), for nothing.
      for (const t of treated) {
        const booked = t.transactions.filter((tx) => !tx.gbp.isZero() || tx.quantity.gt('0.00000001'));
        expect(booked, `${action.action} ${action.block}`).toEqual([]);
      }
    }
    expect(truthActions('hotkey-swap').length).toBeGreaterThan(0);
    for (const swap of truthActions('hotkey-swap')) {
      const refs = pack.ledger.mapping.transactions.filter((tx) =>
        tx.ref?.startsWith(`event ${swap.block}/`),
      );
      expect(refs).toEqual([]);
    }
  });

  it('disposes of the dissolved subnet’s alpha for the TAO paid, valued in pounds', () => {
    const [dissolution] = truthActions('dissolution');
    expect(dissolution).toBeDefined();
    const payout = dissolution!.payouts!.find((p) => pack.inputs.coldkeys.includes(p.coldkey))!;
    const date = dissolution!.time.slice(0, 10);
    const price = new GbpPrices(pack.inputs.fiat).on(date)!;
    const [treated] = treatmentsAt(dissolution!.block);
    expect(treated!.action.kind).toBe('dissolution');
    const disposal = treated!.transactions.find((tx) => tx.action === 'dispose')!;
    expect(disposal.asset).toMatch(new RegExp(`^alpha:${dissolution!.netuid}:`));
    expect(raoOf(disposal.quantity.toFixed())).toBe(BigInt(payout.alpha_rao));
    expect(disposal.gbp.toFixed()).toBe(gbpOfTaoRao(BigInt(payout.tao_rao), price).toFixed());
    const acquired = treated!.transactions.find((tx) => tx.action === 'acquire')!;
    expect([acquired.asset, raoOf(acquired.quantity.toFixed())]).toEqual(['TAO', BigInt(payout.tao_rao)]);
    // events.csv's row (the payout transfer) names the subnet and the alpha given up, as a person reads it.
    const row = readCsv(files.get('events.csv')!).find(
      (r) => r['block'] === String(dissolution!.block) && r['action'] === 'dissolution',
    );
    expect([row?.['netuid'], raoOf(row?.['alpha'] ?? '0'), row?.['treatment']]).toEqual([
      String(dissolution!.netuid),
      BigInt(payout.alpha_rao),
      expect.stringContaining(`subnet ${dissolution!.netuid} dissolved`),
    ]);
  });

  it('takes a recycle as a disposal for nothing', () => {
    const [recycle] = truthActions('recycle');
    const [treated] = treatmentsAt(recycle!.block);
    expect(treated!.action.kind).toBe('recycle');
    expect(treated!.transactions.map((tx) => [tx.action, tx.gbp.toFixed()])).toEqual([['dispose', '0']]);
    expect(raoOf(treated!.transactions[0]!.quantity.toFixed())).toBe(BigInt(recycle!.alpha_rao!));
  });

  it('never shows a transfer to or from a subnet account as outside the order', () => {
    const subnetAccounts = (text: string) =>
      (text.match(/5[1-9A-HJ-NP-Za-km-z]{46,47}/g) ?? []).filter((a) => subnetOfAccount(a) !== null);
    for (const flag of pack.ledger.mapping.flags) expect(subnetAccounts(flag.text), flag.text).toEqual([]);
    for (const treated of pack.ledger.mapping.events) {
      if (treated.action.kind !== 'tao-out' && treated.action.kind !== 'tao-in') continue;
      for (const e of treated.action.events) {
        expect(e.from_subnet ?? null).toBeNull();
        expect(e.to_subnet ?? null).toBeNull();
      }
    }
    // Every stake of spec 425 carries its TAO leg, in one events.csv row with the stake.
    const rows = readCsv(files.get('events.csv')!).filter((r) => Number(r['block']) > SPEC_425_BLOCK);
    expect(rows.some((r) => /Transfer .*StakeAdded|StakeAdded.*Transfer/.test(r['chain_events']!))).toBe(
      true,
    );
  });

  it('reads a position written after the upgrade (AlphaV2 only) at the runtime’s figure, to the RAO', async () => {
    const reader = await chain.reader();
    const lastDay = truth.coldkeys
      .find((c) => c.coldkey === demo)!
      .days.find((d) => {
        const block = pack.inputs.calendar.find((c) => c.date === d.date)?.last_block ?? 0;
        return block > SPEC_425_BLOCK + 3 * BLOCKS_PER_DAY && d.positions.length > 0;
      })!;
    const block = pack.inputs.calendar.find((c) => c.date === lastDay.date)!.last_block;
    const hash = await reader.blockHash(block);
    const version = await reader.rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
    expect(version.specVersion).toBe(425);
    const codec = await reader.codec(version.specVersion, hash);
    let checked = 0;
    for (const p of lastDay.positions) {
      const v1 = codec.storageKey('SubtensorModule', 'Alpha', p.hotkey, demo, p.netuid);
      const v2 = codec.storageKey('SubtensorModule', 'AlphaV2', p.hotkey, demo, p.netuid);
      const [inV1, inV2] = await Promise.all(
        [v1, v2].map((key) => reader.rpc.send<string | null>('state_getStorage', [key, hash])),
      );
      if (inV1 !== null || inV2 === null) continue;
      const position = { coldkey: demo, hotkey: p.hotkey, netuid: p.netuid };
      const read = await readStakesAtBlocks(reader, [position], [demo], [block], 4);
      expect(read.get(block)!.stake.get(positionId(position))).toBe(BigInt(p.alpha_rao));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('gives sbm tax cgt exactly its disposals from cgt-input.csv', () => {
    const { fromPack, rerun } = rerunCgtInput(files, '2025/26');
    expect(rerun).toEqual(fromPack);
  });
});
