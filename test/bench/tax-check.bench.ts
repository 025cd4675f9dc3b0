/**
 * `make bench`: the latency of `GET /tax/check.json` through the real gateway (`startGateway` on
 * loopback, SQLite state, the request log to a file), against the sandbox chain with 20 ms added to
 * every answer. Cold: a coldkey whose answer is not cached (one chain read: three round trips beside
 * one shard fetch); the 24 tracked coldkeys in rounds, the cache cleared between rounds. Cached: the
 * same coldkeys again within 24 hours. Baseline measured in the same run, interleaved with the cached
 * checks: the public snapshot request `GET /api/v1/subnets`. One request at a time, each from its own
 * client address (`X-Forwarded-For` behind one trusted proxy), so neither per-IP limit answers.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../../gateway/config.js';
import { startGateway } from '../../gateway/server.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { startDevnet } from '../../pipeline/devnet/index.js';
import { NOW_MS, publishedSandbox, SANDBOX_OPTIONS } from '../support/published-sandbox.js';
import { median, percentile, verdict } from './sample-stats.js';

const LATENCY_MS = 20;
const COLD_ROUNDS = 5;
const CACHED_SAMPLES = 600;
const COLD_TARGET_MS = 300;
const CACHED_RATIO_TARGET = 1.5;

export async function run(): Promise<void> {
  const world = await publishedSandbox();
  const devnet = await startDevnet(SANDBOX_OPTIONS);
  devnet.setFaults({ latencyMs: LATENCY_MS });
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-tax-'));
  const requestLog = createWriteStream(join(dir, 'requests.log'));
  const config = loadGatewayConfig({
    SBM_PORT: '0',
    SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_CHAIN_URL: devnet.url,
    SBM_TRUST_PROXY: '1',
  });
  const now = () => new Date(NOW_MS + 2 * 3_600_000);
  const gateway = await startGateway(config, { logSink: requestLog, now });
  const state = await openGatewayState(config.stateUrl);
  let client = 0;
  const timed = async (path: string): Promise<number> => {
    client += 1;
    const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
    const started = performance.now();
    const response = await fetch(`${gateway.url}${path}`, { headers: { 'x-forwarded-for': ip } });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path.split('?')[0]} answered ${response.status}`);
    return elapsed;
  };
  const clearCache = () => state.pruneCachedChecks(new Date(NOW_MS + 400 * 86_400_000));
  try {
    const coldkeys = world.truth.coldkeys.map((c) => c.coldkey);
    const checkPath = (coldkey: string) => `/tax/check.json?coldkey=${coldkey}`;
    // Warm-up: the connection, the runtime's metadata and the run's tax objects, once per gateway.
    await timed(checkPath(coldkeys[0]!));
    await timed('/api/v1/subnets');

    const cold: number[] = [];
    const requestsBefore = devnet.requests();
    for (let round = 0; round < COLD_ROUNDS; round++) {
      await clearCache();
      for (const coldkey of coldkeys) cold.push(await timed(checkPath(coldkey)));
    }
    const chainRequests = (devnet.requests() - requestsBefore) / cold.length;

    const cached: number[] = [];
    const publicSnapshot: number[] = [];
    const cachedRequestsBefore = devnet.requests();
    for (let i = 0; i < CACHED_SAMPLES; i++) {
      cached.push(await timed(checkPath(coldkeys[i % coldkeys.length]!)));
      publicSnapshot.push(await timed('/api/v1/subnets'));
    }
    if (devnet.requests() !== cachedRequestsBefore) throw new Error('a cached check reached the chain');

    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const coldMedian = median(cold);
    const coldP99 = percentile(cold, 99);
    process.stdout.write(
      `cold check (sandbox at --latency-ms ${LATENCY_MS}, ${cold.length} checks of ${coldkeys.length} coldkeys, ` +
        `${chainRequests.toFixed(1)} chain requests each): median ${ms(coldMedian)}, p99 ${ms(coldP99)}; ` +
        `target < ${COLD_TARGET_MS} ms: ${verdict(coldP99 < COLD_TARGET_MS)}\n`,
    );
    const ratioMedian = median(cached) / median(publicSnapshot);
    const ratioP99 = percentile(cached, 99) / percentile(publicSnapshot, 99);
    process.stdout.write(
      `cached check (${cached.length}, no chain request): median ${ms(median(cached))}, p99 ${ms(percentile(cached, 99))}\n` +
        `public GET /api/v1/subnets (${publicSnapshot.length}, interleaved): median ${ms(median(publicSnapshot))}, ` +
        `p99 ${ms(percentile(publicSnapshot, 99))}\n` +
        `cached ÷ public: median ${ratioMedian.toFixed(2)}×, p99 ${ratioP99.toFixed(2)}×; ` +
        `target ≤ ${CACHED_RATIO_TARGET}×: ${verdict(ratioMedian <= CACHED_RATIO_TARGET && ratioP99 <= CACHED_RATIO_TARGET)}\n`,
    );
  } finally {
    await state.close();
    await gateway.close();
    await devnet.stop();
    await new Promise((resolve) => requestLog.end(resolve));
    await rm(dir, { recursive: true, force: true });
  }
}
