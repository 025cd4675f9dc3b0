/**
 * A chain connection prints nothing: the project's own connection code (connectRpc over @polkadot/api's
 * WsProvider, ChainReader, RuntimeCodec) and @polkadot/api's ApiPromise, both given subtensor's signed
 * extensions, read blocks of both shipped runtimes (spec 343 before the upgrade, 393 after) from the
 * sandbox chain over a real WebSocket without writing a byte to stderr or the console.
 */
import { ApiPromise, WsProvider } from '@polkadot/api';
import { Metadata, TypeRegistry } from '@polkadot/types';
import { hexToU8a } from '@polkadot/util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc } from '../../pipeline/chain/rpc-client.js';
import { SUBTENSOR_SIGNED_EXTENSIONS } from '../../pipeline/chain/subtensor-extensions.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  resolveWorldParams,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { events, read } from '../devnet/decorated.js';

const GENESIS = new Date('2025-02-01T00:00:00Z');
const DAY = 86_400_000;
// The upgrade falls at noon of day 1; the head is well past it.
const NOW = GENESIS.getTime() + 1.75 * DAY;
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'quiet-connection',
  historyDays: 2,
  genesis: GENESIS,
  now: () => NOW,
  port: 0,
  pricePort: 0,
};
const UPGRADE_BLOCK = resolveWorldParams(OPTIONS, NOW).upgradeBlock;
const BEFORE = UPGRADE_BLOCK - 100;
const AFTER = UPGRADE_BLOCK + 100;

let devnet: RunningDevnet;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
});

afterAll(async () => {
  await devnet?.stop();
});

/** Everything written to stderr or through any console method while it is installed. */
function captureOutput(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const record =
    (channel: string) =>
    (...values: unknown[]) => {
      lines.push(`${channel}: ${values.map(String).join(' ')}`);
    };
  const spies = [
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      lines.push(`stderr: ${String(chunk)}`);
      return true;
    }),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(record(`console.${method}`)),
    ),
  ];
  const restore = () => {
    for (const spy of spies) spy.mockRestore();
  };
  return { lines, restore };
}

let capture: ReturnType<typeof captureOutput> | undefined;
afterEach(() => {
  capture?.restore();
  capture = undefined;
});

describe('a chain connection is quiet', () => {
  it('the capture sees @polkadot/types: subtensor metadata without the declarations warns', async () => {
    const rpc = await connectRpc({ url: devnet.url });
    const reader = new ChainReader(rpc);
    const metadataHex = await rpc.send<string>('state_getMetadata', [await reader.blockHash(AFTER)]);
    await rpc.close();
    capture = captureOutput();
    const registry = new TypeRegistry();
    registry.setMetadata(new Metadata(registry, hexToU8a(metadataHex)));
    const lines = capture.lines;
    capture.restore();
    expect(lines.join('\n')).toMatch(
      /Unknown signed extensions SudoTransactionExtension, CheckShieldedTxValidity, SubtensorTransactionExtension, DrandPriority/,
    );
  });

  it('connectRpc + ChainReader: both runtimes decoded, nothing printed', async () => {
    capture = captureOutput();
    const rpc = await connectRpc({ url: devnet.url });
    const reader = new ChainReader(rpc);
    const specs: number[] = [];
    for (const block of [BEFORE, AFTER]) {
      const codec = await reader.codecOfBlock(block);
      specs.push(codec.specVersion);
      const hash = await reader.blockHash(block);
      const { events } = await reader.eventsAndTime(hash);
      expect(codec.decodeEvents(events).length).toBeGreaterThan(0);
      const number = codec.decodeStorage(
        'System',
        'Number',
        await reader.storage(codec.storageKey('System', 'Number'), hash),
      );
      expect(number?.toString()).toBe(String(block));
    }
    await rpc.close();
    const lines = capture.lines;
    capture.restore();
    expect(specs).toEqual([343, 393]);
    expect(lines).toEqual([]);
  });

  it('ApiPromise with the shared declarations: both runtimes decorated, nothing printed', async () => {
    capture = captureOutput();
    const api = await ApiPromise.create({
      provider: new WsProvider(devnet.url),
      signedExtensions: SUBTENSOR_SIGNED_EXTENSIONS,
      throwOnConnect: true,
    });
    const specs: number[] = [];
    for (const block of [BEFORE, AFTER]) {
      const at = await api.at(await api.rpc.chain.getBlockHash(block));
      specs.push(at.runtimeVersion.specVersion.toNumber());
      expect((await read(at, 'system.number')).toString()).toBe(String(block));
      expect((await events(at)).length).toBeGreaterThan(0);
    }
    await api.disconnect();
    const lines = capture.lines;
    capture.restore();
    expect(specs).toEqual([343, 393]);
    expect(lines).toEqual([]);
  });
});
