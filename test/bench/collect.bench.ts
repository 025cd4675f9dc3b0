/**
 * `make bench`: one sandbox day (7,200 blocks) collected into a fresh warehouse at 0 ms and 20 ms of
 * added latency per request, next to a naive reader measured in the same run: one request at a time,
 * hash then events then timestamp for each block (as a straightforward script would read them). The
 * sandbox runs in this process, so both figures include its own work of producing the blocks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_EVENTS_KEY, TIMESTAMP_NOW_KEY } from '../../pipeline/chain/chain-reader.js';
import { connectRpc } from '../../pipeline/chain/rpc-client.js';
import { collect } from '../../pipeline/collect/collect.js';
import { defaultDevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';

const GENESIS = new Date('2025-01-01T00:00:00Z');
const DAY = '2025-01-02';
const CONCURRENCY = 16;

async function naiveBlocksPerSecond(url: string, from: number, blocks: number): Promise<number> {
  const rpc = await connectRpc({ url, concurrency: 1 });
  const started = performance.now();
  for (let n = from; n < from + blocks; n++) {
    const hash = await rpc.send<string>('chain_getBlockHash', [n]);
    await rpc.send('state_getStorage', [SYSTEM_EVENTS_KEY, hash]);
    await rpc.send('state_getStorage', [TIMESTAMP_NOW_KEY, hash]);
  }
  const seconds = (performance.now() - started) / 1000;
  await rpc.close();
  return blocks / seconds;
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-'));
  const devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: 'bench',
    historyDays: 3,
    genesis: GENESIS,
    now: () => GENESIS.getTime() + 2.5 * 86_400_000,
    port: 0,
    pricePort: 0,
  });
  try {
    const rows: string[] = [];
    for (const latencyMs of [0, 20]) {
      devnet.setFaults({ latencyMs });
      const summary = await collect({
        chainUrl: devnet.url,
        warehousePath: join(dir, `bench-${latencyMs}.duckdb`),
        from: DAY,
        to: DAY,
        concurrency: CONCURRENCY,
      });
      const ours = summary.blocks / summary.seconds;
      // The naive reader is timed on a sample: at 20 ms a whole day would take ten minutes.
      const sample = latencyMs === 0 ? 2_000 : 150;
      // Blocks of another day that nothing has read yet: the sandbox builds a block on first read, and
      // the naive reader must pay that as the collector did.
      const naive = await naiveBlocksPerSecond(devnet.url, latencyMs === 0 ? 100 : 4_000, sample);
      rows.push(
        `latency ${String(latencyMs).padStart(2)} ms: collect ${summary.blocks} blocks in ${summary.seconds.toFixed(1)} s = ` +
          `${Math.round(ours)} blocks/s (concurrency ${CONCURRENCY}, ${summary.requests} requests); ` +
          `naive ${naive.toFixed(1)} blocks/s (sample of ${sample}); ${(ours / naive).toFixed(1)}x; ` +
          `naive day ≈ ${Math.round(7_200 / naive)} s`,
      );
      process.stdout.write(`${rows[rows.length - 1]}\n`);
    }
  } finally {
    await devnet.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
