/**
 * Starts the bench's gateway (the same fixture) and prints its URL and API key, then waits for SIGINT/SIGTERM:
 * run it under `node --cpu-prof` and load it with wrk to see where a request's time goes.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx test/bench/profile-gateway.ts
 */
import { writeFileSync } from 'node:fs';
import { benchWorld, YEAR_WORLD } from './bench-world.js';
import { startGatewayFixture } from './gateway-fixture.js';

const world = await benchWorld(YEAR_WORLD);
const gateway = await startGatewayFixture(world);
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify({ url: gateway.url, apiKey: gateway.apiKey }));
process.stdout.write(`${gateway.url} ${gateway.apiKey}\n`);
const stop = () => {
  gateway.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
