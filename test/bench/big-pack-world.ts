/**
 * The pack benches' world: the sandbox's mainnet world with its big coldkeys (docs/sandbox.md "Big
 * coldkeys"), from 1 April 2025 to 10 April 2026 (all of 2025/26 and its eve), collected and published by the
 * real pipeline once per `make bench` run (in a process of its own) and shared by the benches that need it. Half-hour blocks (the
 * pack's reads do not depend on the block time), mainnet's 125 subnets (room for the staker in 100), no
 * traffic filler. Its chain is then served by a sandbox in a process of its own (`startBigSandbox`), so
 * the bench process's CPU and memory are the client's alone. Its folder is removed when the process exits.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { BigColdkeyRole } from '../../pipeline/devnet/world/big-coldkeys.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import { publishPackWorld } from '../tax/products/pack/pack-world.js';

export interface BigPackWorld {
  dir: string;
  store: FolderObjectStore;
  demoColdkey: string;
  coldkeys: Record<BigColdkeyRole, string>;
  /** What a sandbox process needs to serve the same chain. */
  spec: string;
  head: number;
  headHash: string;
}

let published: Promise<BigPackWorld> | null = null;

/**
 * The world, published once per process by a child process (`big-pack-world-child.ts`), so that the process
 * that builds the packs holds only what a fulfilment worker would; its folder is removed when this process exits.
 */
export function bigPackWorld(): Promise<BigPackWorld> {
  published ??= (async () => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/big-pack-world-child.ts'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = out.trim().split('\n').pop() ?? '';
    if (code !== 0 || !line.startsWith('{'))
      throw new Error(`publishing the big coldkeys' world failed (${code})`);
    const world = JSON.parse(line) as Omit<BigPackWorld, 'store'>;
    process.once('exit', () => rmSync(world.dir, { recursive: true, force: true }));
    process.stdout.write(
      `the big coldkeys' world: 374 days collected and published in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
    return { ...world, store: new FolderObjectStore(join(world.dir, 'store')) };
  })();
  return published;
}

/** Collects and publishes the world into a folder of its own (kept), and stops its sandbox. */
export async function publishBigPackWorld(): Promise<BigPackWorld> {
  const world = await publishPackWorld({
    genesis: new Date('2025-04-01T00:00:00Z'),
    historyDays: 374,
    blockTimeMs: 1_800_000,
    hoursIntoToday: 12,
    magnitudes: 'mainnet',
    eventsPerBlock: null,
    bigColdkeys: true,
  });
  const coldkeys = Object.fromEntries(
    world.devnet.world.stakers.big!.coldkeys.map((c) => [c.role, c.staker.coldkey.address]),
  ) as Record<BigColdkeyRole, string>;
  const { now: _now, genesis, ...options } = world.options;
  const head = world.devnet.head();
  const headHash = world.devnet.blockHash(head);
  // The chain is served from its own process from here on.
  await world.devnet.stop();
  return {
    dir: world.dir,
    store: world.store,
    demoColdkey: world.devnet.demoColdkey,
    coldkeys,
    spec: JSON.stringify({ options: { ...options, genesis: genesis!.toISOString() }, nowMs: world.nowMs }),
    head,
    headHash,
  };
}

export interface BigSandbox {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Whether a sandbox can be given a CPU of its own: two CPUs or more, and util-linux's `taskset` to pin it.
 */
export function sandboxCanHaveOwnCpu(): boolean {
  return availableParallelism() >= 2 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The world's chain served by a sandbox in its own process with `latencyMs` added to every answer.
 *
 * `ownCpu`: the sandbox runs on CPU 0 alone (where `sandboxCanHaveOwnCpu`), as a node on a machine of its own
 * has the same capacity whoever reads it. Unpinned on two cores, the sandbox's collector threads take the
 * second core while a client that does no work of its own reads it, and share it with a client that does.
 */
export async function startBigSandbox(
  world: BigPackWorld,
  latencyMs: number,
  { ownCpu = false }: { ownCpu?: boolean } = {},
): Promise<BigSandbox> {
  const spec = JSON.parse(world.spec) as { options: Record<string, unknown> };
  spec.options.latencyMs = latencyMs;
  const args = ['--import', 'tsx', 'test/bench/sandbox-child.ts', JSON.stringify(spec)];
  const pinned = ownCpu && sandboxCanHaveOwnCpu();
  const child = spawn(
    pinned ? 'taskset' : process.execPath,
    pinned ? ['--cpu-list', '0', process.execPath, ...args] : args,
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [url, head, hash] = await new Promise<[string, number, string]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^(ws:\/\/\S+)\nhead (\d+) (\S+)$/m.exec(out);
      if (match) resolve([match[1]!, Number(match[2]), match[3]!]);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code}) before listening`)));
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  if (head !== world.head || hash !== world.headHash) {
    await stop();
    throw new Error(
      `the sandbox process serves another chain: head ${head} ${hash}, published at ${world.head}`,
    );
  }
  return { url, child, stop };
}
