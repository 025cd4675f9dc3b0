/**
 * How fast the sandbox chain answers `state_getStorage`, so the pipeline's benchmarks measure the
 * pipeline, not the sandbox. One WebSocket, 256 requests in flight; the baseline is `system_health`,
 * which does no work, i.e. the JSON-RPC transport's own ceiling in this process.
 */
import WebSocket from 'ws';
import { encodeKey, storagePrefix } from '../../pipeline/devnet/chain/storage-keys.js';
import { defaultDevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';

const IN_FLIGHT = 256;

async function measure(url: string, count: number, frame: (i: number) => string): Promise<number> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve, reject) => {
    let sent = 0;
    let received = 0;
    socket.on('message', (data) => {
      const answer = JSON.parse(data.toString()) as { error?: { message: string } };
      if (answer.error) reject(new Error(answer.error.message));
      received += 1;
      if (received === count) resolve();
      else if (sent < count) socket.send(frame(sent++));
    });
    while (sent < Math.min(IN_FLIGHT, count)) socket.send(frame(sent++));
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  socket.close();
  return count / seconds;
}

export async function run(): Promise<void> {
  const devnet = await startDevnet({ ...defaultDevnetOptions, port: 0, pricePort: 0 });
  try {
    const head = devnet.head();
    const request = (method: string, params: unknown[], id: number) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const taoPrefix = storagePrefix('SubtensorModule', 'SubnetTAO');
    const eventsKey = storagePrefix('System', 'Events');
    const keys = Array.from({ length: 65 }, (_, netuid) => encodeKey(taoPrefix, ['identity-u16'], [netuid]));
    const hashes = Array.from({ length: 2_000 }, (_, i) => devnet.blockHash(head - 50_000 - i * 37));

    const baseline = await measure(devnet.url, 20_000, (i) => request('system_health', [], i));
    const cold = await measure(devnet.url, 20_000, (i) =>
      request(
        'state_getStorage',
        [keys[i % keys.length], hashes[Math.floor(i / keys.length) % hashes.length]],
        i,
      ),
    );
    const warm = await measure(devnet.url, 20_000, (i) =>
      request(
        'state_getStorage',
        [keys[i % keys.length], hashes[Math.floor(i / keys.length) % hashes.length]],
        i,
      ),
    );
    const events = await measure(devnet.url, 2_000, (i) =>
      request('state_getStorage', [eventsKey, hashes[i]], i),
    );
    const line = (label: string, perSecond: number) =>
      process.stdout.write(
        `${label.padEnd(58)} ${Math.round(perSecond).toLocaleString('en-US').padStart(8)} /s\n`,
      );
    line('baseline: system_health (transport only)', baseline);
    line('state_getStorage SubnetTAO, 20,000 distinct (key, block)', cold);
    line('state_getStorage SubnetTAO, the same 20,000 again (cached)', warm);
    line('state_getStorage System.Events, 2,000 distinct blocks', events);
  } finally {
    await devnet.stop();
  }
}
