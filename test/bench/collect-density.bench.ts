/**
 * `make bench`: collection at mainnet's density against a raw client that fetches the same bytes. The
 * sandbox runs as its own process (`sbm devnet --world mainnet --events-per-block N --latency-ms L`), so the
 * CPU measured here is the client's alone. For each density (75 events a block, mainnet's, then 5, 50, 150 and
 * 400) and each latency (0 and 20 ms added to every answer), one UTC day of 30-second blocks (2,880) is read, after
 * a warm-up pass, in alternating rounds:
 *   - raw: for every block `chain_getBlockHash`, then `state_queryStorageAt` of `System.Events` and
 *     `Timestamp.Now`, the collector's own requests, with the same requests in flight and nothing decoded;
 *   - collect: `collect()` of that day into a fresh warehouse (day bounds, runtime, every block's events decoded
 *     and classified, the panel, the DuckDB write).
 * Printed per row: blocks a second each side (best of the rounds), the ratio, CPU time per block, and each
 * side's requests (the raw side sends exactly the collector's per-block requests; the collector's few more are
 * its day's fixed reads). The target is a ratio within the run: at 20 ms the collector reaches at least 0.7 ×
 * the raw fetch at every density; the last line gives each density's ratio and PASS or FAIL. The line before
 * projects 600 days of 12-second blocks (4.32 million) from the mainnet row at 20 ms.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_EVENTS_KEY, TIMESTAMP_NOW_KEY } from '../../pipeline/chain/chain-reader.js';
import { mapConcurrent } from '../../pipeline/chain/limiter.js';
import { connectRpc } from '../../pipeline/chain/rpc-client.js';
import { collect } from '../../pipeline/collect/collect.js';

// `SBM_BENCH_DENSITIES=5,400` and `SBM_BENCH_LATENCIES=20` narrow a run (a quick check of one row).
const DENSITIES = listFromEnv('SBM_BENCH_DENSITIES') ?? [75, 5, 50, 150, 400];
const LATENCIES = listFromEnv('SBM_BENCH_LATENCIES') ?? [0, 20];
const CONCURRENCY = 16;
const ROUNDS = 2;
const BLOCK_TIME_MS = 30_000;
const TARGET_AT_20_MS = 0.7;

function listFromEnv(name: string): number[] | null {
  const value = process.env[name];
  if (!value) return null;
  return value.split(',').map((part) => Number(part.trim()));
}

interface Sandbox {
  url: string;
  child: ChildProcess;
}

/** `sbm devnet` in its own process; resolves with its URL once it listens. */
async function startSandbox(eventsPerBlock: number, latencyMs: number): Promise<Sandbox> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'pipeline/cli.ts',
      'devnet',
      '--seed',
      'bench-density',
      '--history-days',
      '2',
      '--block-time-ms',
      String(BLOCK_TIME_MS),
      '--runtimes',
      'legacy',
      '--world',
      'mainnet',
      '--events-per-block',
      String(eventsPerBlock),
      '--latency-ms',
      String(latencyMs),
      '--port',
      '0',
      '--price-port',
      '0',
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^(ws:\/\/\S+)$/m.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`sbm devnet exited (${code}) before listening`)));
  });
  return { url, child };
}

async function stopSandbox(sandbox: Sandbox): Promise<void> {
  const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
  sandbox.child.kill('SIGTERM');
  await exited;
}

interface Side {
  blocksPerSecond: number;
  cpuMsPerBlock: number;
  /** JSON-RPC requests sent for the day (retries included). */
  requests: number;
}

/** The day's blocks (yesterday UTC, complete) by binary search on nothing: minute blocks from genesis. */
function yesterdayBlocks(): { day: string; first: number; last: number } {
  const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const genesis = today - 2 * 86_400_000;
  const first = Math.ceil((today - 86_400_000 - genesis) / BLOCK_TIME_MS);
  const last = Math.ceil((today - genesis) / BLOCK_TIME_MS) - 1;
  return { day: new Date(today - 86_400_000).toISOString().slice(0, 10), first, last };
}

async function raw(url: string, first: number, last: number): Promise<Side> {
  const rpc = await connectRpc({ url, concurrency: CONCURRENCY });
  const numbers = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  await mapConcurrent(numbers, CONCURRENCY, async (n) => {
    const hash = await rpc.send<string>('chain_getBlockHash', [n]);
    const sets = await rpc.send<Array<{ changes: Array<[string, string | null]> }>>('state_queryStorageAt', [
      [SYSTEM_EVENTS_KEY, TIMESTAMP_NOW_KEY],
      hash,
    ]);
    bytes += sets[0]?.changes[0]?.[1]?.length ?? 0;
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const requests = rpc.stats.requests;
  await rpc.close();
  if (bytes === 0) throw new Error('raw client read no events');
  return {
    blocksPerSecond: numbers.length / seconds,
    cpuMsPerBlock: (used.user + used.system) / 1000 / numbers.length,
    requests,
  };
}

async function collector(url: string, day: string, dir: string, round: number): Promise<Side> {
  const cpu = process.cpuUsage();
  const summary = await collect({
    chainUrl: url,
    warehousePath: join(dir, `density-${round}-${Math.random().toString(36).slice(2)}.duckdb`),
    from: day,
    to: day,
    concurrency: CONCURRENCY,
  });
  const used = process.cpuUsage(cpu);
  return {
    blocksPerSecond: summary.blocks / summary.seconds,
    cpuMsPerBlock: (used.user + used.system) / 1000 / summary.blocks,
    requests: summary.requests,
  };
}

function best(sides: Side[]): Side {
  return sides.reduce((a, b) => (b.blocksPerSecond > a.blocksPerSecond ? b : a));
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-density-'));
  const { day, first, last } = yesterdayBlocks();
  const results: Array<{ density: number; latency: number; raw: Side; ours: Side }> = [];
  let missed = 0;
  try {
    for (const density of DENSITIES) {
      for (const latency of LATENCIES) {
        const sandbox = await startSandbox(density, latency);
        try {
          await raw(sandbox.url, first, last); // warm-up: the sandbox builds each block once
          const raws: Side[] = [];
          const ours: Side[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            raws.push(await raw(sandbox.url, first, last));
            ours.push(await collector(sandbox.url, day, dir, round));
          }
          const r = best(raws);
          const o = best(ours);
          results.push({ density, latency, raw: r, ours: o });
          const ratio = o.blocksPerSecond / r.blocksPerSecond;
          const verdict =
            latency === 20
              ? ratio >= TARGET_AT_20_MS
                ? `≥ ${TARGET_AT_20_MS}: met`
                : `≥ ${TARGET_AT_20_MS}: MISSED`
              : '';
          if (latency === 20 && ratio < TARGET_AT_20_MS) missed += 1;
          process.stdout.write(
            `${String(density).padStart(3)} events/block, ${String(latency).padStart(2)} ms: ` +
              `collect ${Math.round(o.blocksPerSecond)} blocks/s (${o.cpuMsPerBlock.toFixed(2)} ms CPU/block), ` +
              `raw ${Math.round(r.blocksPerSecond)} blocks/s (${r.cpuMsPerBlock.toFixed(2)} ms CPU/block): ` +
              `ratio ${ratio.toFixed(2)} ${verdict} [requests: collect ${o.requests}, raw ${r.requests}]\n`,
          );
        } finally {
          await stopSandbox(sandbox);
        }
      }
    }
    const mainnet = results.find((r) => r.density === 75 && r.latency === 20);
    if (mainnet) {
      const blocks = 600 * 7_200;
      const days = blocks / mainnet.ours.blocksPerSecond / 86_400;
      process.stdout.write(
        `600 days of mainnet blocks (${blocks.toLocaleString('en-GB')}) at 20 ms, one node, ${CONCURRENCY} in flight: ` +
          `${(days * 24).toFixed(1)} hours at ${Math.round(mainnet.ours.blocksPerSecond)} blocks/s ` +
          `(raw fetch: ${(blocks / mainnet.raw.blocksPerSecond / 3600).toFixed(1)} hours)\n`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const atTarget = results
    .filter((r) => r.latency === 20)
    .map((r) => `${r.density}: ${(r.ours.blocksPerSecond / r.raw.blocksPerSecond).toFixed(2)}`)
    .join(', ');
  const verdict =
    atTarget === ''
      ? 'not measured (no 20 ms row in this run)'
      : missed === 0
        ? 'PASS'
        : `FAIL (missed at ${missed})`;
  process.stdout.write(
    `ratios at 20 ms by events a block (${atTarget}); target collect ≥ ${TARGET_AT_20_MS} × raw at every density: ${verdict}\n`,
  );
}
