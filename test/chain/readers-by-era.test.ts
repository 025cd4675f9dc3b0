/**
 * The product's collector reads one UTC day of every runtime the sandbox runs by date (spec 233 to 473) and
 * finds what the world holds: every burn, every stake and unstake with the fields its runtime reports, and
 * the subnets' names. Each block is decoded by name through its own runtime's metadata.
 */
import type { Codec } from '@polkadot/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { runtimeApisOf } from '../../pipeline/chain/runtime-call.js';
import { collectDay } from '../../pipeline/collect/collect-day.js';
import { buildTruth, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { positionsAtBlock } from '../../pipeline/tax/chain-record/stake-at-blocks.js';
import { stakeInfoReader } from '../../pipeline/tax/chain-record/stake-info-bytes.js';
import { DATED_OPTIONS } from '../devnet/dated-world.js';

const STAKE_INFO = 'StakeInfoRuntimeApi_get_stake_info_for_coldkey';

let devnet: RunningDevnet;
let rpc: RpcClient;
let reader: ChainReader;

beforeAll(async () => {
  devnet = await startDevnet(DATED_OPTIONS);
  rpc = await connectRpc({ url: devnet.url });
  reader = new ChainReader(rpc);
}, 120_000);

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

/** A whole UTC day inside each runtime's span, with the spec that runs it. */
const DAYS: Array<[string, number]> = [
  ['2025-02-20', 233],
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

describe('the readers decode every runtime by name', () => {
  it.each(DAYS)(
    "%s (spec %i): burns, stakes with their fields, the demo coldkey's positions and subnet names as the truth has them",
    async (date, spec) => {
      const truth = buildTruth(DATED_OPTIONS, date, date);
      const day = truth.days[0]!;
      const codec = await reader.codecOfBlock(day.first_block);
      expect(codec.specVersion).toBe(spec);
      const rows = await collectDay(
        reader,
        { day: date, firstBlock: day.first_block, lastBlock: day.last_block, partial: false },
        { concurrency: 16 },
      );

      // Burns: none before spec 257 (no burn_alpha, no AlphaBurned); from it on, each of the truth's.
      const burns = rows.burns.map((b) => [b.block, b.eventIndex, b.kind, b.alphaRao.toString()]);
      expect(burns).toEqual(truth.burns.map((b) => [b.block, b.event_index, b.kind, b.alpha_rao]));
      if (spec < 257) expect(burns).toEqual([]);
      else expect(burns.length).toBeGreaterThan(0);

      // Stakes and unstakes of the runtimes before 425 (from 425 an action has several such events).
      if (spec < 425) {
        const fees = new Map(truth.staking_details.map((d) => [`${d.block}/${d.event_index}`, d.fee_rao]));
        const expected = truth.staking_events
          .filter((e) => e.kind === 'StakeAdded' || e.kind === 'StakeRemoved')
          .map((e) => ({
            at: `${e.block}/${e.event_index}`,
            kind: e.kind,
            coldkey: e.coldkey,
            netuid: e.netuid,
            tao: e.tao_rao,
            alpha: e.alpha_rao,
            // Spec 233's events report no fee; from 257 the sixth field is the fee charged.
            fee: spec < 257 ? null : fees.get(`${e.block}/${e.event_index}`),
          }));
        const got = rows.stakingEvents
          .filter((e) => e.kind === 'StakeAdded' || e.kind === 'StakeRemoved')
          .map((e) => ({
            at: `${e.block}/${e.eventIndex}`,
            kind: e.kind,
            coldkey: e.coldkey,
            netuid: e.netuid,
            tao: e.taoRao?.toString(),
            alpha: e.alphaRao?.toString(),
            fee: e.detail === null ? null : String(e.detail['fee_rao']),
          }));
        expect(got.length).toBeGreaterThan(0);
        expect(got).toEqual(expected);
        // Before the swap pallet (283) staking is charged the flat 50,000 rao; from it the pool's fee rate,
        // 0.3 % until 297 and 0.05 % from it (of a stake's amount, or of an unstake's TAO before the fee).
        const stakes = truth.staking_events.filter(
          (e) => e.kind === 'StakeAdded' || e.kind === 'StakeRemoved',
        );
        for (const e of stakes) {
          const fee = BigInt(fees.get(`${e.block}/${e.event_index}`) ?? -1);
          const tao = BigInt(e.tao_rao ?? -1);
          const gross = e.kind === 'StakeAdded' && spec >= 257 ? tao : tao + fee;
          const rate = spec < 283 ? null : spec < 297 ? 30n : 5n;
          expect(fee).toBe(rate === null ? (gross < 50_000n ? gross : 50_000n) : (gross * rate) / 10_000n);
        }
      }

      // The demo coldkey's positions at the day's end, from `get_stake_info_for_coldkey` decoded with the
      // block's own `StakeInfo` (its fields differ between the blobs).
      const demo = truth.coldkeys.find((c) => c.demo)!;
      const positions = await positionsAtBlock(reader, demo.coldkey, day.last_block);
      const key = (p: { hotkey: string; netuid: number }) => `${p.hotkey}/${p.netuid}`;
      expect(positions.map(key).sort()).toEqual(demo.days[0]!.positions.map(key).sort());
      // The stake reads take each entry's hotkey, netuid and stake from the answer's bytes, laid out by the
      // block's own metadata: the same as the codecs decode, field by field (for a coldkey holding stake that
      // day: the demo coldkey has swapped its key away by spec 425).
      const holder = truth.coldkeys.find((c) => (c.days[0]?.positions.length ?? 0) > 0)!;
      const hash = await reader.blockHash(day.last_block);
      const apis = await runtimeApisOf(rpc, await reader.codecOfBlock(day.last_block), hash);
      const answer = await rpc.send<string>('state_call', [
        STAKE_INFO,
        apis.encodeArgs(STAKE_INFO, [holder.coldkey]),
        hash,
      ]);
      const decoded = apis.decodeResult(STAKE_INFO, answer) as unknown as Array<Record<string, Codec>>;
      expect(decoded.length).toBeGreaterThan(0);
      expect(stakeInfoReader(apis, STAKE_INFO)?.(answer)).toEqual(
        decoded.map((info) => ({
          hotkey: info['hotkey']!.toString(),
          netuid: Number(info['netuid']!.toString()),
          stake: BigInt(info['stake']!.toString()),
        })),
      );

      // Subnet names: from SubnetIdentitiesV2 before spec 283, SubnetIdentitiesV3 from it on.
      const names = new Map(truth.subnets.map((s) => [`${s.netuid}/${s.registered_at}`, s.name]));
      expect(rows.subnets.length).toBeGreaterThan(60);
      for (const subnet of rows.subnets) {
        expect(subnet.name).toBe(names.get(`${subnet.netuid}/${subnet.registeredAt}`));
      }
    },
    240_000,
  );
});
