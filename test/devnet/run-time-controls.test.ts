/**
 * What tests of other parts steer while the sandbox runs: an emission flap of one block, and a runtime
 * upgrade that happens live (the client sees the new version through its subscription).
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import { encodeKey, storagePrefix } from '../../pipeline/devnet/chain/storage-keys.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
  truthOf,
} from '../../pipeline/devnet/index.js';
import { events, isEvent } from './decorated.js';

const GENESIS = new Date('2025-04-01T00:00:00Z');
let clock = GENESIS.getTime() + 2.5 * 86_400_000;
const HEAD = 2.5 * 7_200;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'controls-test',
  historyDays: 2,
  genesis: GENESIS,
  upgradeBlock: HEAD + 2,
  now: () => clock,
  port: 0,
  pricePort: 0,
};

let devnet: RunningDevnet;
let api: ApiPromise;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
  api = await ApiPromise.create({
    provider: new WsProvider(devnet.url),
    signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
    throwOnConnect: true,
  });
});

afterAll(async () => {
  await api?.disconnect();
  await devnet?.stop();
});

describe('injectEmissionFlap', () => {
  it('suspends one subnet for exactly one block, in storage and in the truth', async () => {
    const block = HEAD - 10;
    const netuid = devnet.world
      .aliveAt(block)
      .find((s) => devnet.world.emissions.status(s, block) === 'flowing')!.netuid;
    const key = encodeKey(
      storagePrefix('SubtensorModule', 'SubnetEmissionEnabled'),
      ['identity-u16'],
      [netuid],
    );
    const read = async (n: number) =>
      ((await api.rpc.state.getStorage(key, devnet.blockHash(n))) as Codec).toHex();
    // Inject before anything reads the block: clients cache answers for a block hash, as a chain's
    // history never changes.
    devnet.injectEmissionFlap(netuid, block);
    expect([await read(block - 1), await read(block), await read(block + 1)]).toEqual([
      '0x01',
      '0x00',
      '0x01',
    ]);
    const changes = truthOf(devnet.world, clock, '2025-04-03', '2025-04-03').emission_changes.filter(
      (c) => c.netuid === netuid,
    );
    expect(changes.map((c) => [c.block, c.status])).toEqual([
      [block, 'suspended'],
      [block + 1, 'flowing'],
    ]);
  });
});

describe('a live runtime upgrade', () => {
  it('announces spec 393 through state_subscribeRuntimeVersion and decodes the new event indexes', async () => {
    expect(api.runtimeVersion.specVersion.toNumber()).toBe(343);
    const versions: number[] = [];
    const unsubscribe = await api.rpc.state.subscribeRuntimeVersion((version) => {
      versions.push(version.specVersion.toNumber());
    });
    await waitFor(() => versions.length === 1);
    // The set_code block is the one before the upgrade block: its state already holds spec 393.
    clock += 1 * OPTIONS.blockTimeMs;
    await waitFor(() => versions.includes(393));
    expect(versions).toEqual([343, 393]);
    unsubscribe();
    const setCode = await api.at(devnet.blockHash(HEAD + 1));
    expect(setCode.runtimeVersion.specVersion.toNumber()).toBe(343);
    expect((await events(setCode)).some((r) => isEvent(setCode, 'system.CodeUpdated', r.event))).toBe(true);
    clock += 1 * OPTIONS.blockTimeMs;
    const upgraded = await api.at(devnet.blockHash(HEAD + 2));
    expect(upgraded.runtimeVersion.specVersion.toNumber()).toBe(393);
    await waitFor(() => api.runtimeVersion.specVersion.toNumber() === 393);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
