/**
 * A sandbox world collected by the real pipeline (devnet chain with a fixed clock → `collect` → DuckDB)
 * for a benchmark to read. Collection costs about a quarter of a second per day here whatever the block
 * time (the burns, not the blocks, drive the requests), so a 400-day world takes two minutes: the
 * warehouse is kept under the OS temp folder and reused. Its folder name hashes the world's options and
 * the source of every module that shapes the warehouse, so a code change builds a fresh one.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect } from '../../pipeline/collect/collect.js';
import { defaultDevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';

const DAY_MS = 86_400_000;
const GENESIS = new Date('2026-01-01T00:00:00Z');
const PIPELINE = fileURLToPath(new URL('../../pipeline/', import.meta.url));
/** What decides the warehouse's bytes: the chain, the sandbox, the collector and the schema. */
const SHAPING_FOLDERS = ['chain', 'collect', 'devnet', 'warehouse'];

export interface BenchWorldOptions {
  seed: string;
  historyDays: number;
  /** Long blocks keep the block count small; the burn schedule is per day, so every day still burns. */
  blockTimeMs: number;
}

/** The world both benchmarks read: 400 days, 64 subnets, 24 blocks a day. */
export const YEAR_WORLD: BenchWorldOptions = { seed: 'bench-year', historyDays: 400, blockTimeMs: 3_600_000 };

export interface BenchWorld {
  warehousePath: string;
  /** The world's "now": today is day `historyDays`, 15 hours in (partial). */
  nowMs: number;
  days: number;
  blocks: number;
  burns: number;
  /** Complete days without a single burn (a realistic world has none). */
  daysWithoutBurns: string[];
  /** Seconds the collection took, or null when a kept warehouse was reused. */
  collectSeconds: number | null;
}

interface WorldFacts {
  days: number;
  blocks: number;
  burns: number;
  daysWithoutBurns: string[];
}

export async function benchWorld(options: BenchWorldOptions): Promise<BenchWorld> {
  const nowMs = GENESIS.getTime() + options.historyDays * DAY_MS + 15 * 3_600_000;
  const dir = join(tmpdir(), `sbm-bench-world-${await worldKey(options)}`);
  const factsPath = join(dir, 'facts.json');
  const warehousePath = join(dir, 'burns.duckdb');
  if (await exists(factsPath)) {
    const facts = JSON.parse(await readFile(factsPath, 'utf8')) as WorldFacts;
    return { warehousePath, nowMs, ...facts, collectSeconds: null };
  }
  // Built beside its final place and renamed in whole, so an interrupted build is never reused.
  const building = await mkdtemp(`${dir}.building-`);
  try {
    const started = performance.now();
    const facts = await collectWorld(options, nowMs, join(building, 'burns.duckdb'));
    await writeFile(join(building, 'facts.json'), JSON.stringify(facts));
    await rm(dir, { recursive: true, force: true });
    await rename(building, dir);
    await removeOutdatedWorlds(dir);
    return { warehousePath, nowMs, ...facts, collectSeconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

async function collectWorld(options: BenchWorldOptions, nowMs: number, warehousePath: string) {
  const devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: options.seed,
    historyDays: options.historyDays,
    genesis: GENESIS,
    blockTimeMs: options.blockTimeMs,
    now: () => nowMs,
    port: 0,
    pricePort: 0,
  });
  try {
    const summary = await collect({
      chainUrl: devnet.url,
      warehousePath,
      concurrency: 32,
      clock: () => new Date(nowMs),
    });
    if (summary.status !== 'complete') throw new Error(`bench world collection failed: ${summary.error}`);
    return {
      days: summary.days.length,
      blocks: summary.blocks,
      burns: summary.burns,
      daysWithoutBurns: summary.days.filter((d) => !d.partial && d.burns === 0).map((d) => d.day),
    } satisfies WorldFacts;
  } finally {
    await devnet.stop();
  }
}

async function worldKey(options: BenchWorldOptions): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify([options, GENESIS.toISOString()]));
  for (const folder of SHAPING_FOLDERS) {
    const files = await readdir(join(PIPELINE, folder), { recursive: true, withFileTypes: true });
    const paths = files.filter((f) => f.isFile()).map((f) => join(f.parentPath, f.name));
    // Relative names: a checkout elsewhere with the same sources reuses the same world.
    for (const path of paths.sort()) hash.update(relative(PIPELINE, path)).update(await readFile(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Worlds kept for sources that have changed since are never read again; they only fill the disk. */
async function removeOutdatedWorlds(current: string): Promise<void> {
  const name = basename(current);
  for (const entry of await readdir(tmpdir())) {
    if (/^sbm-bench-world-[0-9a-f]{16}$/.test(entry) && entry !== name) {
      await rm(join(tmpdir(), entry), { recursive: true, force: true });
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** One line a benchmark prints first: what it ran on, and whether the world had to be collected. */
export function describeWorld(world: BenchWorld): string {
  const origin =
    world.collectSeconds === null
      ? 'kept from an earlier run'
      : `collected in ${world.collectSeconds.toFixed(0)} s`;
  const gaps =
    world.daysWithoutBurns.length === 0
      ? 'burns every day'
      : `WARNING: no burns on ${world.daysWithoutBurns.length} days (${world.daysWithoutBurns.join(', ')})`;
  return `world: ${world.days} days, ${world.blocks} blocks, ${world.burns} burns, ${gaps} (${origin})`;
}
