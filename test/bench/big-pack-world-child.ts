/**
 * Publishes the big coldkeys' world in a process of its own: `node --import tsx
 * test/bench/big-pack-world-child.ts`. Prints the world (its folder, coldkeys and chain) as one line of JSON
 * and exits; the folder is kept for the caller to remove. The collecting and publishing leave a few hundred
 * MiB of heap behind them; a fulfilment worker starts without it, and so does the process that measures a pack.
 */
import { publishBigPackWorld } from './big-pack-world.js';

const { store: _store, ...world } = await publishBigPackWorld();
process.stdout.write(`${JSON.stringify(world)}\n`);
process.exit(0);
