/**
 * The JSON-RPC layer over a raw WebSocket: error codes, malformed frames, batches and the faults on demand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BlockHashes } from '../../pipeline/devnet/chain/blocks.js';
import { ChainStorage } from '../../pipeline/devnet/chain/storage.js';
import {
  type DevnetOptions,
  defaultDevnetOptions,
  type RunningDevnet,
  startDevnet,
} from '../../pipeline/devnet/index.js';
import { ChainNode } from '../../pipeline/devnet/rpc/chain-node.js';
import { SUBSCRIBE_METHODS } from '../../pipeline/devnet/rpc/ws-server.js';
import { loadRuntimes } from '../../pipeline/devnet/runtime/runtimes.js';

const GENESIS = new Date('2025-05-01T00:00:00Z');
const OPTIONS: DevnetOptions = {
  ...defaultDevnetOptions,
  seed: 'json-rpc-test',
  historyDays: 2,
  genesis: GENESIS,
  now: () => GENESIS.getTime() + 1.5 * 86_400_000,
  port: 0,
  pricePort: 0,
};
let devnet: RunningDevnet;

beforeAll(async () => {
  devnet = await startDevnet(OPTIONS);
});

afterAll(async () => {
  devnet.setFaults({ latencyMs: 0, failRate: 0, dropEvery: 0 });
  await devnet?.stop();
});

/** A raw client: sends text frames, collects parsed answers in order, notices closes. */
class RawClient {
  readonly socket: WebSocket;
  readonly messages: unknown[] = [];
  closed = false;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static async open(url: string): Promise<RawClient> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new RawClient(socket);
  }

  /** The answer (or batch answer) carrying `id`, whatever arrives before it (a subscription's notifications). */
  async answer(id: number): Promise<unknown> {
    const carries = (m: unknown) => (m as { id?: unknown }).id === id;
    const find = () => this.messages.find((m) => (Array.isArray(m) ? m.some(carries) : carries(m)));
    await waitFor(() => find() !== undefined || this.closed);
    return find();
  }

  async request(frame: string): Promise<unknown> {
    const before = this.messages.length;
    this.socket.send(frame);
    await waitFor(() => this.messages.length > before || this.closed);
    return this.messages[before];
  }

  call(method: string, params: unknown[] = [], id = 1): Promise<unknown> {
    return this.request(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  close(): void {
    this.socket.close();
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('JSON-RPC errors', () => {
  it('answers -32601 to an unknown method and -32700 to a malformed frame, then keeps serving', async () => {
    const client = await RawClient.open(devnet.url);
    expect(await client.call('chain_noSuchMethod', [], 7)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found: chain_noSuchMethod' },
    });
    expect(await client.request('{"jsonrpc": "2.0", "id": 1, "method": ')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect(await client.request('"just a string"')).toMatchObject({ error: { code: -32600 } });
    expect(await client.call('system_chain')).toEqual({ jsonrpc: '2.0', id: 1, result: 'Bittensor' });
    client.close();
  });

  it('answers invalid params, unknown block hashes and unknown runtime calls with errors, not crashes', async () => {
    const client = await RawClient.open(devnet.url);
    expect(await client.call('state_getStorage', [42])).toMatchObject({ error: { code: -32602 } });
    expect(await client.call('state_getStorage', ['0x26aa', `0x${'ab'.repeat(32)}`])).toMatchObject({
      error: { code: 4003 },
    });
    expect(await client.call('state_call', ['Nope_nothing', '0x'])).toMatchObject({ error: { code: 1002 } });
    expect(await client.call('chain_getBlockHash', [10_000_000])).toMatchObject({ result: null });
    expect(await client.call('state_getStorage', ['0x1234'])).toMatchObject({ result: null });
    client.close();
  });

  it('answers a batch with an array of answers', async () => {
    const client = await RawClient.open(devnet.url);
    const answer = await client.request(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'chain_getBlockHash', params: [0] },
        { jsonrpc: '2.0', id: 2, method: 'nope', params: [] },
      ]),
    );
    expect(answer).toEqual([
      { jsonrpc: '2.0', id: 1, result: devnet.blockHash(0) },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: nope' } },
    ]);
    client.close();
  });

  it('lists every method it answers in rpc_methods', async () => {
    // The server's own tables: the chain node's request methods, the subscriptions the WebSocket layer
    // runs, and the unsubscribe of each.
    const runtimes = loadRuntimes();
    const hashes = new BlockHashes(OPTIONS.seed);
    const node = new ChainNode(
      devnet.world,
      runtimes,
      hashes,
      new ChainStorage(devnet.world, runtimes, hashes),
      OPTIONS.now!,
      OPTIONS.finalityLag,
    );
    const table = [
      ...node.requestMethods(),
      ...SUBSCRIBE_METHODS,
      ...SUBSCRIBE_METHODS.map((m) => m.replace('subscribe', 'unsubscribe')),
    ];
    expect(node.requestMethods().length).toBeGreaterThan(20);
    expect(SUBSCRIBE_METHODS.length).toBeGreaterThan(5);
    const client = await RawClient.open(devnet.url);
    const { result } = (await client.call('rpc_methods')) as { result: { methods: string[] } };
    // Each listed method answers (here with no params: a result or an error, never 'Method not found'),
    // and a name outside the tables does not.
    const control = 'state_getNothingAtAll';
    const asked = [...result.methods, control];
    const answers = (await client.request(
      JSON.stringify(asked.map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] }))),
    )) as Array<{ id: number; error?: { code: number } }>;
    const codes = new Map(answers.map((a) => [asked[a.id]!, a.error?.code ?? 'result']));
    expect(codes.size).toBe(asked.length);
    expect(codes.get(control)).toBe(-32601);
    expect(result.methods.filter((method) => codes.get(method) === -32601)).toEqual([]);
    // The list is the tables: nothing answered is left out, nothing is listed twice.
    expect(result.methods).toEqual([...new Set(table)].sort());
    client.close();
  });
});

describe('faults on demand', () => {
  it('--fail-rate 1 fails every data request but not the handshake; turning it off restores answers', async () => {
    const client = await RawClient.open(devnet.url);
    devnet.setFaults({ failRate: 1 });
    expect(await client.call('state_getStorage', ['0x1234'])).toMatchObject({ error: { code: -32603 } });
    expect(await client.call('chain_getHeader', [])).toMatchObject({ error: { code: -32603 } });
    expect(await client.call('system_chain')).toMatchObject({ result: 'Bittensor' });
    devnet.setFaults({ failRate: 0 });
    expect(await client.call('state_getStorage', ['0x1234'])).toMatchObject({ result: null });
    client.close();
  });

  it('a fail rate of 0.3 fails about that share of requests', async () => {
    const client = await RawClient.open(devnet.url);
    devnet.setFaults({ failRate: 0.3 });
    let failed = 0;
    for (let i = 0; i < 200; i++) {
      const answer = (await client.call('chain_getFinalizedHead', [], i)) as { error?: unknown };
      if (answer.error) failed += 1;
    }
    devnet.setFaults({ failRate: 0 });
    expect(failed).toBeGreaterThan(30);
    expect(failed).toBeLessThan(90);
    client.close();
  });

  it('--drop-every N answers N requests then closes the connection', async () => {
    devnet.setFaults({ dropEvery: 3 });
    const client = await RawClient.open(devnet.url);
    expect(await client.call('system_chain', [], 1)).toMatchObject({ result: 'Bittensor' });
    expect(await client.call('system_chain', [], 2)).toMatchObject({ result: 'Bittensor' });
    expect(await client.call('system_chain', [], 3)).toMatchObject({ result: 'Bittensor' });
    await waitFor(() => client.closed);
    devnet.setFaults({ dropEvery: 0 });
    const again = await RawClient.open(devnet.url);
    expect(await again.call('system_chain')).toMatchObject({ result: 'Bittensor' });
    again.close();
  });

  it('--latency-ms delays every answer: each method, errors, batches, many in flight, another connection', async () => {
    const client = await RawClient.open(devnet.url);
    const other = await RawClient.open(devnet.url);
    devnet.setFaults({ latencyMs: 150 });
    const requests: Array<[string, unknown[]]> = [
      ['system_health', []],
      ['system_chain', []],
      ['chain_getBlockHash', [0]],
      ['chain_getHeader', []],
      ['chain_getFinalizedHead', []],
      ['state_getRuntimeVersion', []],
      ['state_getStorage', ['0x1234']],
      ['state_getKeysPaged', ['0x', 10]],
      ['rpc_methods', []],
      ['chain_noSuchMethod', []], // -32601
      ['state_getStorage', [42]], // -32602
      ['chain_subscribeNewHeads', []], // a subscription's id (its first notification follows)
    ];
    const delays = new Map<string, number[]>();
    const timed = async (label: string, client: RawClient, send: () => void, id: number) => {
      const start = Date.now();
      send();
      const answer = await client.answer(id);
      expect(answer, label).toBeDefined();
      delays.set(label, [...(delays.get(label) ?? []), Date.now() - start]);
    };
    const frame = (id: number, [method, params]: [string, unknown[]]) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    try {
      // One after another, each its own method.
      for (const [i, request] of requests.entries()) {
        await timed(request[0], client, () => client.socket.send(frame(i + 1, request)), i + 1);
      }
      // All at once on one connection, and on a second connection.
      await Promise.all([
        ...requests.map((request, i) =>
          timed(
            `${request[0]} in flight`,
            client,
            () => client.socket.send(frame(100 + i, request)),
            100 + i,
          ),
        ),
        timed('another connection', other, () => other.socket.send(frame(7, requests[0]!)), 7),
      ]);
      // A batch: one answer, delayed as a whole.
      await timed(
        'batch',
        client,
        () => client.socket.send(`[${frame(200, requests[2]!)},${frame(201, requests[9]!)}]`),
        200,
      );
    } finally {
      devnet.setFaults({ latencyMs: 0 });
      client.close();
      other.close();
    }
    expect([...delays.values()].flat().length).toBe(2 * requests.length + 2);
    for (const [label, ms] of delays) {
      for (const delay of ms) expect(delay, label).toBeGreaterThanOrEqual(145);
    }
  });
});
