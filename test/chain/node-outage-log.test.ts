/**
 * While the node is down the chain client logs the loss once, stays silent through its retries (a
 * "still unreachable" line at most once a minute), and logs the recovery once; a dropped socket that
 * the first try replaces logs nothing; a request sent during
 * the outage is answered when the node is back. The node is the sandbox chain over a real WebSocket,
 * reached through a TCP relay the test cuts and restores (the node itself keeps its state).
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { connectRpc } from '../../pipeline/chain/rpc-client.js';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';

const GENESIS = new Date('2025-02-01T00:00:00Z');
let devnet: RunningDevnet;

beforeAll(async () => {
  devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: 'node-outage',
    historyDays: 1,
    genesis: GENESIS,
    now: () => GENESIS.getTime() + 12 * 3_600_000,
    port: 0,
    pricePort: 0,
  });
});

afterAll(async () => {
  await devnet?.stop();
});

/** A TCP relay to the node that can be taken down (every connection cut, the port closed) and back up. */
async function relay(target: URL) {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  /** Cuts the open connections only, as a proxy recycling its sockets would: the node stays reachable. */
  const drop = () => {
    for (const s of sockets) s.destroy();
  };
  await up();
  return { url: () => `ws://127.0.0.1:${port}`, up, down, drop };
}

it('logs a node outage once, stays quiet while retrying, and logs the recovery once', async () => {
  const node = await relay(new URL(devnet.url));
  const lines: string[] = [];
  const consoleSpies = (['log', 'info', 'warn', 'error'] as const).map((m) =>
    vi
      .spyOn(console, m)
      .mockImplementation((...values: unknown[]) => lines.push(`console: ${values.join(' ')}`)),
  );
  const rpc = await connectRpc({
    url: node.url(),
    reconnectTimeoutMs: 30_000,
    reconnect: { baseDelayMs: 10, maxDelayMs: 40, log: (line) => lines.push(line) },
  });
  try {
    const chain = await rpc.send<string>('system_chain', []);
    expect(lines).toEqual([]);

    // A dropped socket that the first try replaces is not worth a line.
    node.drop();
    await vi.waitFor(() => expect(rpc.stats.reconnectTries).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(await rpc.send<string>('system_chain', [])).toBe(chain);
    expect(lines).toEqual([]);

    await node.down();
    // Many silent tries: the relay's port is closed, each try is refused.
    const before = rpc.stats.reconnectTries;
    await vi.waitFor(() => expect(rpc.stats.reconnectTries - before).toBeGreaterThanOrEqual(20), {
      timeout: 20_000,
      interval: 20,
    });
    expect(lines).toEqual([
      `chain: lost the connection to ${node.url()}; retrying with backoff up to every 40 ms`,
    ]);

    // A request made during the outage waits for the node instead of failing.
    const during = rpc.send<string>('system_chain', []);
    await node.up();
    expect(await during).toBe(chain);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^chain: reconnected to ${node.url()} after \\d+ s$`));
    expect(await rpc.send<string>('system_chain', [])).toBe(chain);
    expect(lines).toHaveLength(2);
  } finally {
    await rpc.close();
    for (const spy of consoleSpies) spy.mockRestore();
  }
});
