/**
 * `make bench`: how the tax pack's cost grows with its positions. Full-year packs (2025/26) of three coldkeys
 * of the sandbox's mainnet world with its big coldkeys (docs/sandbox.md "Big coldkeys"): the demo coldkey
 * (about 10 positions), the validator (about 50) and the staker in 100 subnets (about 200), each at
 * `--latency-ms 0` and `20`. For each: wall time, CPU time, peak memory, the chain reads the pack made, and
 * the same reads (the same requests, in the same order, with the same number in flight) made by a raw client
 * in the same run, which decodes nothing and does no tax work. The sandbox runs in a process of its own
 * (big-pack-world.ts): CPU and memory are the bench process's, the pack's (or the raw client's) alone. It
 * runs on a CPU of its own where the machine allows, so that the node has the same capacity for both
 * clients (`startBigSandbox`'s `ownCpu`); the clients use every CPU.
 *
 * Targets: at 20 ms the pack reads at least 0.7× the raw client's rate at every size (the median of five
 * rounds, each a pack and then the raw client); time grows no faster than position-days; peak memory within
 * `MEMORY_LIMIT_MIB`.
 */
import { PACK_READ_CONCURRENCY } from '../../pipeline/tax/products/compute-tax-year.js';
import { buildPackFiles } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { type BigPackWorld, bigPackWorld, sandboxCanHaveOwnCpu, startBigSandbox } from './big-pack-world.js';
import { type RecordedRequest, replayRequests } from './raw-replay.js';

const verdict = (passed: boolean) => (passed ? 'PASS' : 'FAIL');

const LATENCIES_MS = [0, 20];
const RATE_TARGET = 0.7;
/**
 * docs/operating.md gives a fulfilment worker no memory limit; this is the bound the bench holds it to
 * (the growth of the bench process's resident memory while the pack builds), recorded in docs/benchmarks.md.
 */
const MEMORY_LIMIT_MIB = 1_024;

interface Figures {
  label: string;
  positions: number;
  positionDays: number;
  latencyMs: number;
  wallS: number;
  cpuS: number;
  peakRssMiB: number;
  /** Peak resident memory over what the process held before the build: the pack's own. */
  growthMiB: number;
  reads: number;
  /** Shares of the pack's wall time with no read in flight, 1 to 3, and 4 or more. */
  inFlight: [number, number, number];
  /** When the build's last read came back, from its start. */
  lastReadS: number;
  rawS: number;
  rawCpuS: number;
}

/**
 * Peak resident memory while `task` runs, and its growth over what the process held before (the builds and
 * raw clients before it leave the process large: the growth is the pack's own), sampled every 50 ms.
 */
async function withPeakRss<T>(
  task: () => Promise<T>,
): Promise<{ value: T; peakMiB: number; growthMiB: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    const value = await task();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMiB: peak / 1_048_576, growthMiB: (peak - before) / 1_048_576 };
  } finally {
    clearInterval(timer);
  }
}

/** How much of [from, to] had no request in flight, 1 to 3, and 4 or more (what bounds the pack). */
function inFlightShares(
  spans: ReadonlyArray<[number, number]>,
  from: number,
  to: number,
): [number, number, number] {
  const edges = spans.flatMap(([a, b]) => [
    [a, 1],
    [b, -1],
  ]) as Array<[number, number]>;
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const time = [0, 0, 0];
  let depth = 0;
  let at = from;
  for (const [t, step] of edges) {
    time[depth === 0 ? 0 : depth < 4 ? 1 : 2]! += t - at;
    at = t;
    depth += step;
  }
  time[0]! += to - at;
  const total = to - from;
  return [time[0]! / total, time[1]! / total, time[2]! / total];
}

/** The pack of `coldkey` built against a sandbox just started, every request it makes recorded. */
async function timePack(
  world: BigPackWorld,
  latencyMs: number,
  label: string,
  coldkey: string,
): Promise<{ requests: RecordedRequest[]; figures: Omit<Figures, 'rawS' | 'rawCpuS'> }> {
  const sandbox = await startBigSandbox(world, latencyMs, { ownCpu: true });
  const chain = openPackChain(sandbox.url);
  try {
    const requests: RecordedRequest[] = [];
    const reader = await chain.reader();
    const rpc = reader.rpc;
    const send = rpc.send.bind(rpc);
    // Every request the pack makes, recorded for the raw client.
    const spans: Array<[number, number]> = [];
    rpc.send = async <T>(method: string, params: unknown[]) => {
      requests.push({ method, params });
      const from = performance.now();
      try {
        return await send<T>(method, params);
      } finally {
        spans.push([from, performance.now()]);
      }
    };
    const order = {
      id: `ord_bench_${label}`,
      sku: 'uk-2025-26',
      packName: 'UK tax pack 2025/26',
      taxYear: '2025/26',
      coldkeys: [coldkey],
      paidAt: new Date('2026-04-10T09:00:00Z'),
    };
    const cpu = process.cpuUsage();
    const started = performance.now();
    const {
      value: built,
      peakMiB,
      growthMiB,
    } = await withPeakRss(() => buildPackFiles(order, { store: world.store, chain: async () => reader }));
    const ended = performance.now();
    const wallS = (ended - started) / 1000;
    const used = process.cpuUsage(cpu);
    const ledger = built.ledger;
    let positionDays = 0;
    for (const day of ledger.days) positionDays += ledger.stakes.get(day.block)?.held.length ?? 0;
    return {
      requests,
      figures: {
        label,
        positions: ledger.positions.length,
        positionDays,
        latencyMs,
        wallS,
        cpuS: (used.user + used.system) / 1e6,
        peakRssMiB: peakMiB,
        growthMiB,
        reads: requests.length,
        inFlight: inFlightShares(spans, started, ended),
        lastReadS: (Math.max(started, ...spans.map(([, to]) => to)) - started) / 1000,
      },
    };
  } finally {
    await chain.close();
    await sandbox.stop();
  }
}

/** The pack's rate of reads over the raw client's, both in wall time. */
function rateRatio({ reads, wallS, rawS }: Figures): number {
  return reads / wallS / (reads / rawS);
}

/**
 * Rounds of each size (pack, then raw client): five at 20 ms, where the target is, whose median ratio counts
 * (a shared machine moves one round's ratio by a tenth either way, now and then by a fifth: the median of five
 * stands for the size when two rounds of five meet such a moment, where that of three did not); one at 0 ms.
 */
function roundsAt(latencyMs: number): number {
  return latencyMs === 20 ? 5 : 1;
}

/** One round's figures on one line. */
function roundLine(figures: Figures, round: number, rounds: number): string {
  const { label, latencyMs, wallS, reads, positionDays, rawS } = figures;
  return (
    `latency ${String(latencyMs).padStart(2)} ms, ${label}${rounds > 1 ? ` (round ${round + 1} of ${rounds})` : ''}: ${figures.positions} positions, ` +
    `${positionDays} position-days: pack ${wallS.toFixed(1)} s wall, ${figures.cpuS.toFixed(1)} s CPU, ` +
    `peak ${figures.peakRssMiB.toFixed(0)} MiB (+${figures.growthMiB.toFixed(0)} during the build), ${reads} reads (${(reads / wallS).toFixed(0)}/s); ` +
    `raw client ${rawS.toFixed(1)} s, ${figures.rawCpuS.toFixed(1)} s CPU (${(reads / rawS).toFixed(0)}/s); ` +
    `pack/raw rate ${rateRatio(figures).toFixed(2)}x; pack time with 0 / 1-3 / 4+ reads in flight: ` +
    `${figures.inFlight.map((x) => `${Math.round(x * 100)} %`).join(' / ')}` +
    (latencyMs === 20 && rounds === 1
      ? ` (target ≥ ${RATE_TARGET}x: ${verdict(rateRatio(figures) >= RATE_TARGET)})`
      : '') +
    // What bounds the ratio: the build's work after its last read, which the raw client does not have.
    `; last read back at ${figures.lastReadS.toFixed(1)} s, then ${(wallS - figures.lastReadS).toFixed(1)} s of tax work and files ` +
    `(${RATE_TARGET}x allows ${Math.max(0, rawS / RATE_TARGET - figures.lastReadS).toFixed(1)} s)`
  );
}

export async function run(): Promise<void> {
  const world = await bigPackWorld();
  const coldkeys = [
    { label: 'demo', coldkey: world.demoColdkey },
    { label: 'validator', coldkey: world.coldkeys.validator },
    { label: 'wide-staker', coldkey: world.coldkeys['wide-staker'] },
  ];
  process.stdout.write(
    sandboxCanHaveOwnCpu()
      ? 'each sandbox on CPU 0 alone (taskset); the pack and the raw client on every CPU\n'
      : 'each sandbox on every CPU, shared with the pack and the raw client (one CPU, or no taskset)\n',
  );
  const rows: Figures[] = [];
  for (const latencyMs of LATENCIES_MS) {
    for (const { label, coldkey } of coldkeys) {
      const rounds: Figures[] = [];
      for (let round = 0; round < roundsAt(latencyMs); round++) {
        // Each side meets a sandbox just started: its caches as cold for the pack as for the raw client.
        const packSide = await timePack(world, latencyMs, label, coldkey);
        const sandbox = await startBigSandbox(world, latencyMs, { ownCpu: true });
        const rawCpu = process.cpuUsage();
        const rawS = await replayRequests(sandbox.url, packSide.requests, PACK_READ_CONCURRENCY).finally(() =>
          sandbox.stop(),
        );
        const rawUsed = process.cpuUsage(rawCpu);
        const figures: Figures = {
          ...packSide.figures,
          rawS,
          rawCpuS: (rawUsed.user + rawUsed.system) / 1e6,
        };
        rounds.push(figures);
        process.stdout.write(`${roundLine(figures, round, roundsAt(latencyMs))}\n`);
      }
      // The round of the median ratio stands for the size (one round at 0 ms, five at 20).
      const byRatio = [...rounds].sort((a, b) => rateRatio(a) - rateRatio(b));
      const median = byRatio[Math.floor(byRatio.length / 2)]!;
      rows.push({ ...median, growthMiB: Math.max(...rounds.map((r) => r.growthMiB)) });
      if (rounds.length > 1) {
        process.stdout.write(
          `latency ${String(latencyMs).padStart(2)} ms, ${label}: pack/raw rate ${rounds.map((r) => rateRatio(r).toFixed(2)).join(', ')}: ` +
            `median ${rateRatio(median).toFixed(2)}x (target ≥ ${RATE_TARGET}x: ${verdict(rateRatio(median) >= RATE_TARGET)})\n`,
        );
      }
    }
  }
  for (const latencyMs of LATENCIES_MS) {
    const at = rows.filter((r) => r.latencyMs === latencyMs);
    const small = at[0]!;
    const large = at[at.length - 1]!;
    const timeGrowth = large.wallS / small.wallS;
    const workGrowth = large.positionDays / small.positionDays;
    process.stdout.write(
      `latency ${String(latencyMs).padStart(2)} ms: ${small.label} → ${large.label}: position-days ×${workGrowth.toFixed(1)}, ` +
        `time ×${timeGrowth.toFixed(1)} (target: no faster than position-days: ${verdict(timeGrowth <= workGrowth)}); ` +
        `the pack's memory (peak growth during a build) at most ${Math.max(...at.map((r) => r.growthMiB)).toFixed(0)} MiB ` +
        `(bound ${MEMORY_LIMIT_MIB} MiB: ${verdict(at.every((r) => r.growthMiB <= MEMORY_LIMIT_MIB))})\n`,
    );
  }
}
