/**
 * The pack benches' world: the sandbox's mainnet world with its big coldkeys (docs/sandbox.md "Big
 * coldkeys"), from 1 April 2025 to 10 April 2026 (all of 2025/26 and its eve), collected and published by the
 * real pipeline once per `make bench` run and shared by the benches that need it. Half-hour blocks (the
 * pack's reads do not depend on the block time), mainnet's 125 subnets (room for the staker in 100), no
 * traffic filler. Its folder is removed when the process exits.
 */
import { rmSync } from 'node:fs';
import { type PackWorld, publishPackWorld } from '../tax/products/pack/pack-world.js';

let published: Promise<PackWorld> | null = null;

export function bigPackWorld(): Promise<PackWorld> {
  published ??= (async () => {
    const started = performance.now();
    const world = await publishPackWorld({
      genesis: new Date('2025-04-01T00:00:00Z'),
      historyDays: 374,
      blockTimeMs: 1_800_000,
      hoursIntoToday: 12,
      magnitudes: 'mainnet',
      eventsPerBlock: null,
      bigColdkeys: true,
    });
    process.once('exit', () => rmSync(world.dir, { recursive: true, force: true }));
    process.stdout.write(
      `the big coldkeys' world: 374 days collected and published in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
    return world;
  })();
  return published;
}

/** The address of one of the world's big coldkeys. */
export function bigColdkey(
  world: PackWorld,
  role: 'validator' | 'subnet-owner' | 'miner' | 'wide-staker',
): string {
  return world.devnet.world.stakers.big!.coldkeys.find((c) => c.role === role)!.staker.coldkey.address;
}
