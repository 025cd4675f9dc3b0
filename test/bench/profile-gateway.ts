/**
 * Where a request's time goes: starts the bench's gateway (the same fixture, request log on), writes
 * its URL and API key to the file named by the first argument, and profiles the CPU (V8's sampling
 * profiler, 100 µs) from SIGUSR2 to the next SIGUSR2, so startup and publication stay out of the
 * profile. Load it with wrk in between; SIGTERM stops it. The profile goes to the second argument.
 *   npx tsx test/bench/profile-gateway.ts /tmp/gateway.json /tmp/gateway.cpuprofile
 * Open the profile in Chrome's DevTools (Performance) or read its top self times with any script.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { benchWorld, YEAR_WORLD } from './bench-world.js';
import { startGatewayFixture } from './gateway-fixture.js';

const [infoPath, profilePath] = process.argv.slice(2);
if (!infoPath || !profilePath) throw new Error('usage: profile-gateway.ts <info.json> <out.cpuprofile>');
const world = await benchWorld(YEAR_WORLD);
const gateway = await startGatewayFixture(world);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
let profiling = false;
process.on('SIGUSR2', () => {
  void (async () => {
    if (!profiling) {
      profiling = true;
      await session.post('Profiler.start');
      return;
    }
    profiling = false;
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profilePath, JSON.stringify(profile));
    process.stdout.write(`profile written to ${profilePath}\n`);
  })();
});
writeFileSync(infoPath, JSON.stringify({ url: gateway.url, apiKey: gateway.apiKey, pid: process.pid }));
process.once('SIGTERM', () => {
  void gateway.close().then(() => process.exit(0));
});
