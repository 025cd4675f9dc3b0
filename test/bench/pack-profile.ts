/**
 * A profiling aid for the pack bench's world (not a bench: no figures of its own).
 *
 *   npx tsx test/bench/pack-profile.ts publish <dir>          publish the big coldkeys' world into <dir>, kept
 *   npx tsx test/bench/pack-profile.ts build <dir> <roles> <latency-ms> <out> [thread-from]
 *                                                              build each role's 2025/26 pack in turn (a
 *                                                              comma-separated list: the later ones in a warm
 *                                                              process, as in the bench), write the last one's
 *                                                              files into <out>, print wall and CPU time;
 *                                                              [thread-from]: the position-days from which a
 *                                                              second thread makes the gains and exports
 *                                                              (default the product's; a huge number: never)
 *
 * The sandbox runs on CPU 0 alone where the machine allows, as in the `pack-growth` bench.
 *
 *   npx tsx test/bench/pack-profile.ts threads <dir> <roles> <latency-ms>
 *                                                              build the last role's pack (the ones before it
 *                                                              first, unmeasured, to warm the process as in the
 *                                                              bench; one role: a fresh process, as a cron-run
 *                                                              `orders fulfil`), then make its reads again with
 *                                                              the raw client; print each side's time on a CPU
 *                                                              and waiting for one, per thread, during the reads
 *                                                              and after them (Linux; thread-cpu.ts)
 *
 * Roles: demo, validator, wide-staker (and the other big coldkeys). Run `build` under `node --cpu-prof
 * --import tsx` to profile one pack; compare two `<out>` folders byte for byte to show a change kept the pack.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import { PACK_READ_CONCURRENCY } from '../../pipeline/tax/products/compute-tax-year.js';
import { buildPackFiles } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { type BigPackWorld, publishBigPackWorld, startBigSandbox } from './big-pack-world.js';
import { type RecordedRequest, replayRequests } from './raw-replay.js';
import { describeThreadTimes, type ThreadTime, threadTimes, threadTimesSince } from './thread-cpu.js';

const [mode, dir, role, latency, out, threadFrom] = process.argv.slice(2);
if (!dir) throw new Error('usage: pack-profile.ts publish <dir> | build <dir> <role> <latency-ms> <out>');

if (mode === 'publish') {
  const world = await publishBigPackWorld();
  const described = {
    storeDir: join(world.dir, 'store'),
    coldkeys: { ...world.coldkeys, demo: world.demoColdkey },
    spec: world.spec,
    head: world.head,
    headHash: world.headHash,
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'world.json'), JSON.stringify(described, null, 2));
  process.stdout.write(`published into ${world.dir}; described in ${join(dir, 'world.json')}\n`);
} else if (mode === 'build') {
  const world = worldIn(dir);
  const roles = (role ?? '').split(',');
  for (const [i, each] of roles.entries())
    await buildOne(each, world, i === roles.length - 1 ? out : undefined);
} else if (mode === 'threads') {
  const world = worldIn(dir);
  const roles = (role ?? 'wide-staker').split(',');
  for (const each of roles.slice(0, -1)) await warmUp(each, world, Number(latency ?? 20));
  await threadsOf(roles[roles.length - 1]!, world, Number(latency ?? 20));
} else {
  throw new Error(`unknown mode ${mode}`);
}

/** The world `publish` described in `dir`. */
function worldIn(dir: string): BigPackWorld {
  const described = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as {
    storeDir: string;
    coldkeys: Record<string, string>;
    spec: string;
    head: number;
    headHash: string;
  };
  return {
    ...described,
    store: new FolderObjectStore(described.storeDir),
    dir,
    demoColdkey: described.coldkeys.demo!,
  } as unknown as BigPackWorld;
}

function coldkeyOf(world: BigPackWorld, role: string): string {
  const coldkey = (world as unknown as { coldkeys: Record<string, string> }).coldkeys[role];
  if (!coldkey) throw new Error(`no coldkey ${role} in the world (roles: demo and the big coldkeys)`);
  return coldkey;
}

/** The 2025/26 order of `coldkey`, as the bench places it. */
function orderOf(role: string, coldkey: string) {
  return {
    id: `ord_bench_${role}`,
    sku: 'uk-2025-26',
    packName: 'UK tax pack 2025/26',
    taxYear: '2025/26',
    coldkeys: [coldkey],
    paidAt: new Date('2026-04-10T09:00:00Z'),
  };
}

function sumRun(times: ReadonlyMap<number, ThreadTime>): number {
  let run = 0;
  for (const time of times.values()) run += time.runS;
  return run;
}

/** A pack built and dropped: the process's code compiled and its caches filled, as in the bench. */
async function warmUp(role: string, world: BigPackWorld, latencyMs: number): Promise<void> {
  const sandbox = await startBigSandbox(world, latencyMs, { ownCpu: true });
  const chain = openPackChain(sandbox.url);
  try {
    const reader = await chain.reader();
    await buildPackFiles(orderOf(role, coldkeyOf(world, role)), {
      store: world.store,
      chain: async () => reader,
    });
  } finally {
    await chain.close();
    await sandbox.stop();
  }
}

/**
 * Where the CPU went while a pack read the chain and after: the sandbox's threads and this process's, each
 * thread's time running and waiting for a core; then the same for the raw client making the same reads.
 */
async function threadsOf(role: string, world: BigPackWorld, latencyMs: number): Promise<void> {
  const coldkey = coldkeyOf(world, role);
  const requests: RecordedRequest[] = [];
  let packS = 0;
  const sandbox = await startBigSandbox(world, latencyMs, { ownCpu: true });
  const chain = openPackChain(sandbox.url);
  const sandboxPid = sandbox.child.pid!;
  const readings = () => ({
    at: performance.now(),
    own: threadTimes(process.pid),
    sandbox: threadTimes(sandboxPid),
  });
  try {
    const reader = await chain.reader();
    const send = reader.rpc.send.bind(reader.rpc);
    // A reading at most every 50 ms as answers arrive: the last one stands for the end of the reads.
    let atLastRead = readings();
    let firstSent = 0;
    reader.rpc.send = async <T>(method: string, params: unknown[]) => {
      requests.push({ method, params });
      firstSent ||= performance.now();
      try {
        return await send<T>(method, params);
      } finally {
        if (performance.now() - atLastRead.at > 50) atLastRead = readings();
      }
    };
    const start = readings();
    // When the stake reads begin (the positions known), and how long the node had worked by then.
    let stakeReads: ReturnType<typeof readings> | undefined;
    await buildPackFiles(orderOf(role, coldkey), {
      store: world.store,
      chain: async () => reader,
      onProgress: (progress) => {
        if (progress.phase === 'reading-chain' && !stakeReads) stakeReads = readings();
      },
    });
    const end = readings();
    packS = (end.at - start.at) / 1000;
    const seconds = (at: number) => ((at - start.at) / 1000).toFixed(2);
    const side = (from: typeof start, to: typeof start) =>
      `    sandbox ${describeThreadTimes(sandboxPid, threadTimesSince(from.sandbox, to.sandbox))}\n` +
      `    this process ${describeThreadTimes(process.pid, threadTimesSince(from.own, to.own))}\n`;
    process.stdout.write(
      `${role} at ${latencyMs} ms: the pack took ${seconds(end.at)} s, its reads ${seconds(atLastRead.at)} s ` +
        `(${requests.length} reads); its first read sent at ${seconds(firstSent)} s, its stake reads begun at ` +
        `${seconds(stakeReads?.at ?? end.at)} s (the node's threads had run ` +
        `${sumRun(threadTimesSince(start.sandbox, (stakeReads ?? end).sandbox)).toFixed(2)} s); ` +
        `seconds on a CPU / waiting for one:\n  during the reads\n` +
        side(start, atLastRead) +
        `  after them\n${side(atLastRead, end)}`,
    );
  } finally {
    await chain.close();
    await sandbox.stop();
  }
  const rawSandbox = await startBigSandbox(world, latencyMs, { ownCpu: true });
  try {
    const pid = rawSandbox.child.pid!;
    const before = { own: threadTimes(process.pid), sandbox: threadTimes(pid) };
    const rawS = await replayRequests(rawSandbox.url, requests, PACK_READ_CONCURRENCY);
    process.stdout.write(
      `the raw client took ${rawS.toFixed(2)} s (pack/raw rate ${(rawS / packS).toFixed(2)}x)\n` +
        `    sandbox ${describeThreadTimes(pid, threadTimesSince(before.sandbox, threadTimes(pid)))}\n` +
        `    this process ${describeThreadTimes(process.pid, threadTimesSince(before.own, threadTimes(process.pid)))}\n`,
    );
  } finally {
    await rawSandbox.stop();
  }
}

async function buildOne(role: string, world: BigPackWorld, writeOut: string | undefined): Promise<void> {
  const store = world.store;
  const sandbox = await startBigSandbox(world, Number(latency ?? 0), { ownCpu: true });
  const chain = openPackChain(sandbox.url);
  try {
    const reader = await chain.reader();
    // Each request's span, for a timeline of the reads in flight second by second.
    const spans: Array<[number, number, string]> = [];
    const send = reader.rpc.send.bind(reader.rpc);
    reader.rpc.send = async <T>(method: string, params: unknown[]) => {
      const from = performance.now();
      try {
        return await send<T>(method, params);
      } finally {
        spans.push([from, performance.now(), method]);
      }
    };
    const order = orderOf(role, coldkeyOf(world, role));
    let lastPhase = '';
    const cpu = process.cpuUsage();
    const started = performance.now();
    const built = await buildPackFiles(order, {
      store,
      chain: async () => reader,
      ...(threadFrom ? { threadFromPositionDays: Number(threadFrom) } : {}),
      onProgress: (p) => {
        if (p.phase !== lastPhase) {
          lastPhase = p.phase;
          const used = process.cpuUsage(cpu);
          process.stdout.write(
            `${((performance.now() - started) / 1000).toFixed(2)} s (CPU ${((used.user + used.system) / 1e6).toFixed(2)} s): ${p.phase}, ${p.positions} positions × ${p.days} days, ${p.blocks} blocks\n`,
          );
        }
      },
    });
    const ended = performance.now();
    const wallS = (ended - started) / 1000;
    const seconds = Math.ceil((ended - started) / 1000);
    const depth = new Array<number>(seconds).fill(0);
    const count = new Array<number>(seconds).fill(0);
    for (const [from, to] of spans) {
      count[Math.min(seconds - 1, Math.floor((to - started) / 1000))]! += 1;
      for (let s = Math.floor((from - started) / 1000); s <= Math.floor((to - started) / 1000); s++) {
        const overlap = Math.min(to, started + (s + 1) * 1000) - Math.max(from, started + s * 1000);
        if (s >= 0 && s < seconds) depth[s]! += overlap / 1000;
      }
    }
    process.stdout.write(
      `second: reads done / mean in flight\n${depth.map((d, s) => `${s}: ${count[s]} / ${d.toFixed(1)}`).join('\n')}\n`,
    );
    // What was read while few reads were in flight: the serial parts.
    const serial = new Map<string, number>();
    for (const [from, to, method] of spans) {
      const second = Math.floor((from - started) / 1000);
      if (second < seconds && depth[second]! < 4) serial.set(method, (serial.get(method) ?? 0) + (to - from));
    }
    process.stdout.write(
      `time of reads started in seconds with < 4 in flight, by method: ${[...serial].map(([m, ms]) => `${m} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`,
    );
    const lastRead = Math.max(...spans.map(([, to]) => to));
    // On the monotonic clock a --cpu-prof profile's timestamps use (microseconds), to cut a window from it.
    const endUs = Number(process.hrtime.bigint() / 1000n) - Math.round((performance.now() - ended) * 1000);
    process.stdout.write(
      `${spans.length} reads, the last done at ${((lastRead - started) / 1000).toFixed(2)} s (monotonic ${endUs - Math.round((ended - lastRead) * 1000)} µs; the build ended at ${endUs} µs)\n`,
    );
    const used = process.cpuUsage(cpu);
    if (writeOut) {
      mkdirSync(writeOut, { recursive: true });
      for (const [name, bytes] of built.files) writeFileSync(join(writeOut, name), bytes);
      writeFileSync(join(writeOut, 'pack.zip'), built.zip);
    }
    process.stdout.write(
      `${role}: ${built.ledger.positions.length} positions, wall ${wallS.toFixed(2)} s, CPU ${((used.user + used.system) / 1e6).toFixed(2)} s\n`,
    );
  } finally {
    await chain.close();
    await sandbox.stop();
  }
}
