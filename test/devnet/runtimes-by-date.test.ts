/**
 * The sandbox runs, on each block's UTC date, the runtime mainnet ran that day (from dTAO's launch on), and
 * serves the real metadata blob of every runtime one exists for (233, 315, 320, 343, 393).
 */
import { readFileSync } from 'node:fs';
import { Metadata, TypeRegistry } from '@polkadot/types';
import { compactFromU8a, hexToU8a } from '@polkadot/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  buildTruth,
  defaultDevnetOptions,
  type RunningDevnet,
  resolveWorldParams,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { DATED_NOW_MS, DATED_OPTIONS } from './dated-world.js';

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

/** The first block of a UTC date in the dated world (ten-minute blocks from midnight of genesis). */
const blockOn = (date: string, hour = 12) =>
  (Date.parse(`${date}T00:00:00Z`) - DATED_OPTIONS.genesis!.getTime()) / 600_000 + hour * 6;

/** What mainnet ran on the date (its spec_version there, per the subtensor README's dates). */
const MAINNET: Array<[string, number]> = [
  ['2025-02-20', 233],
  ['2025-04-06', 257], // tax year 2025/26 begins: spec 258, which the readers cannot tell from 257
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

function realBlob(file: string): Uint8Array {
  const path = new URL(`../../pipeline/devnet/metadata/${file}`, import.meta.url);
  if (file.endsWith('.scale')) return new Uint8Array(readFileSync(path));
  const wrapped = hexToU8a(readFileSync(path, 'utf8').trim());
  const [offset, length] = compactFromU8a(wrapped.subarray(1));
  return wrapped.subarray(1 + offset, 1 + offset + length.toNumber());
}

function outline(bytes: Uint8Array) {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, bytes);
  registry.setMetadata(metadata, undefined, SUBTENSOR_SIGNED_EXTENSIONS);
  const latest = metadata.asLatest;
  const pallets = latest.pallets.map((p) => ({
    name: p.name.toString(),
    index: p.index.toNumber(),
    storage: p.storage.isSome ? p.storage.unwrap().items.map((i) => i.name.toString()) : [],
    events: p.events.isSome
      ? registry.lookup
          .getSiType(p.events.unwrap().type)
          .def.asVariant.variants.map((v) => `${v.index.toNumber()} ${v.name.toString()}/${v.fields.length}`)
      : [],
  }));
  const apis = latest.apis.flatMap((a) => a.methods.map((m) => `${a.name.toString()}_${m.name.toString()}`));
  const system = latest.pallets.find((p) => p.name.toString() === 'System')!;
  const version = system.constants.find((c) => c.name.toString() === 'Version')!.value.toHex();
  return { pallets, apis, version };
}

describe('runtimes placed by date', () => {
  it('each block runs what mainnet ran on its UTC date, whatever the history length', async () => {
    for (const [date, spec] of MAINNET) {
      const hash = await reader.blockHash(blockOn(date));
      const version = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash]);
      expect({ date, spec: version.specVersion }).toEqual({ date, spec });
    }
    // The same date in a shorter history of the same day runs the same runtime.
    const shorter = resolveWorldParams(
      { ...DATED_OPTIONS, genesis: new Date('2025-04-20T00:00:00Z') },
      DATED_NOW_MS,
    );
    expect(shorter.runtimePlacement).toBe('dates');
    const block = (Date.parse('2025-05-01T12:00:00Z') - Date.parse('2025-04-20T00:00:00Z')) / 600_000;
    const step = [...shorter.runtimeSchedule].reverse().find((s) => s.fromBlock <= block)!;
    expect(step.spec).toBe(257);
  }, 240_000); // every runtime's metadata is built on first use

  it("an upgrade's set_code is in the last block of the day before: the whole date runs one runtime", async () => {
    const first = blockOn('2025-06-30', 0);
    const before = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [
      await reader.blockHash(first - 2),
    ]);
    const codeBlock = await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [
      await reader.blockHash(first - 1),
    ]);
    expect([before.specVersion, codeBlock.specVersion]).toEqual([257, 283]);
    const codec = await reader.codecOfBlock(first - 1);
    const { events } = await reader.eventsAndTime(await reader.blockHash(first - 1));
    // The block's own events are decoded with the runtime that ran it (257), the code update among them.
    expect(codec.specVersion).toBe(257);
    expect(codec.decodeEvents(events).map((e) => `${e.pallet}.${e.name}`)).toContain('System.CodeUpdated');
  });

  it("serves the real blob of 233, 315, 320, 343 and 393 at a block of each one's era", async () => {
    const blobs: Array<[string, string]> = [
      ['2025-03-01', 'finney-spec233-v15.hex'],
      ['2025-09-15', 'finney-spec315-v15.hex'],
      ['2025-10-01', 'finney-spec320-v15.hex'],
      ['2025-12-01', 'finney-spec343-v15.hex'],
      ['2026-05-01', 'finney-spec393-v16.scale'],
    ];
    for (const [date, file] of blobs) {
      const served = hexToU8a(
        await rpc.send<string>('state_getMetadata', [await reader.blockHash(blockOn(date))]),
      );
      const real = outline(realBlob(file));
      const got = outline(served);
      expect(got.version).toBe(real.version);
      expect(got.apis).toEqual(real.apis);
      // Every pallet, storage item and event of the blob, at its index; the sandbox adds one storage item.
      expect(
        got.pallets.map((p) => ({ ...p, storage: p.storage.filter((s) => s !== 'SubnetEmissionEnabled') })),
      ).toEqual(real.pallets);
    }
  });

  it("`devnet truth` lists the runtimes by date: a 620-day history from April 2025 on runs mainnet's", () => {
    const truth = buildTruth(
      { ...defaultDevnetOptions, seed: 'demo', historyDays: 620, now: () => DATED_NOW_MS },
      '2026-11-26',
      '2026-11-26',
    );
    expect(truth.runtime_placement).toBe('dates');
    const firstDates = truth.runtimes.map((r) => [r.spec, r.first_time.slice(0, 10)]);
    expect(firstDates).toEqual([
      [233, '2025-03-17'],
      [257, '2025-03-28'],
      [283, '2025-06-30'],
      [285, '2025-07-01'],
      [297, '2025-07-23'],
      [315, '2025-09-09'],
      [320, '2025-09-24'],
      [334, '2025-11-04'],
      [343, '2025-11-07'],
      [393, '2026-03-25'],
      [425, '2026-06-30'],
      [473, '2026-10-05'],
    ]);
    expect(truth.runtimes.find((r) => r.spec === 283)!.features).toContain('swapPallet');
    expect(truth.runtimes.find((r) => r.spec === 257)!.features).not.toContain('swapPallet');
  });

  it('a short history keeps the compressed 343 → 393 → 425 → 473', () => {
    const params = resolveWorldParams({ ...defaultDevnetOptions, historyDays: 35 }, DATED_NOW_MS);
    expect(params.runtimePlacement).toBe('compressed');
    expect(params.runtimeSchedule.map((s) => s.spec)).toEqual([343, 393, 425, 473]);
  });
});
