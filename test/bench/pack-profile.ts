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
 * Roles: demo, validator, wide-staker (and the other big coldkeys). Run `build` under `node --cpu-prof
 * --import tsx` to profile one pack; compare two `<out>` folders byte for byte to show a change kept the pack.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import { buildPackFiles } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { type BigPackWorld, publishBigPackWorld, startBigSandbox } from './big-pack-world.js';

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
  const described = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8')) as {
    storeDir: string;
    coldkeys: Record<string, string>;
    spec: string;
    head: number;
    headHash: string;
  };
  const store = new FolderObjectStore(described.storeDir);
  const world = {
    ...described,
    store,
    dir,
    demoColdkey: described.coldkeys.demo!,
  } as unknown as BigPackWorld;
  const roles = (role ?? '').split(',');
  for (const [i, each] of roles.entries())
    await buildOne(each, world, i === roles.length - 1 ? out : undefined);
} else {
  throw new Error(`unknown mode ${mode}`);
}

async function buildOne(role: string, world: BigPackWorld, writeOut: string | undefined): Promise<void> {
  const described = JSON.parse(readFileSync(join(dir!, 'world.json'), 'utf8')) as {
    coldkeys: Record<string, string>;
  };
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
    const order = {
      id: `ord_bench_${role}`,
      sku: 'uk-2025-26',
      packName: 'UK tax pack 2025/26',
      taxYear: '2025/26',
      coldkeys: [described.coldkeys[role]!],
      paidAt: new Date('2026-04-10T09:00:00Z'),
    };
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
