/**
 * The JSON-RPC layer over a raw WebSocket: error codes, malformed frames, batches and the faults on demand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';

const GENESIS = new Date('2025-05-01T00:00:00Z');
let devnet: RunningDevnet;

beforeAll(async () => {
  devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: 'json-rpc-test',
    historyDays: 2,
    genesis: GENESIS,
    now: () => GENESIS.getTime() + 1.5 * 86_400_000,
    port: 0,
    pricePort: 0,
  });
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
    const client = await RawClient.open(devnet.url);
    const { result } = (await client.call('rpc_methods')) as { result: { methods: string[] } };
    for (const method of [
      'chain_getBlockHash',
      'chain_getHeader',
      'chain_getFinalizedHead',
      'chain_subscribeNewHeads',
      'chain_subscribeFinalizedHeads',
      'state_getRuntimeVersion',
      'state_getMetadata',
      'state_getStorage',
      'state_queryStorageAt',
      'state_getKeysPaged',
      'state_call',
      'state_subscribeStorage',
      'state_subscribeRuntimeVersion',
      'system_health',
      'system_properties',
    ]) {
      expect(result.methods).toContain(method);
    }
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

  it('--latency-ms delays every answer', async () => {
    const client = await RawClient.open(devnet.url);
    devnet.setFaults({ latencyMs: 150 });
    const start = Date.now();
    await client.call('system_health');
    const slow = Date.now() - start;
    devnet.setFaults({ latencyMs: 0 });
    expect(slow).toBeGreaterThanOrEqual(145);
    client.close();
  });
});
