/**
 * The real gateway over a published world, as `sbm-gateway serve` runs it: `startGateway` on loopback
 * with SQLite state and a folder store in a temp dir, plus one API key made with the auth functions on
 * the same SQLite file. Limits are set so they never answer for the load: no per-IP limit, and an
 * allowance far above what a benchmark can spend. Every request is logged, as in production, to a file.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayApp } from '../../gateway/app.js';
import { createAccount } from '../../gateway/auth/accounts.js';
import { createApiKey } from '../../gateway/auth/api-keys.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { startGateway } from '../../gateway/server.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { publishSnapshots } from '../../pipeline/snapshots/publish-snapshots.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';

export interface GatewayFixture {
  url: string;
  apiKey: string;
  /** The app itself, for profiling its fast path without the network (`profile-gateway.ts`). */
  app: GatewayApp;
  close(): Promise<void>;
}

export async function startGatewayFixture(world: {
  warehousePath: string;
  nowMs: number;
}): Promise<GatewayFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-gateway-'));
  // The world's clock, an hour after publication: the data is current, as in production.
  const now = () => new Date(world.nowMs + 2 * 3_600_000);
  try {
    const storeDir = join(dir, 'store');
    await publishSnapshots({
      warehousePath: world.warehousePath,
      store: new FolderObjectStore(storeDir),
      baseUrl: 'https://sbm.example',
      keepRuns: 3,
      now: () => new Date(world.nowMs + 3_600_000),
    });
    const config = loadGatewayConfig({
      SBM_PORT: '0',
      SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      SBM_STORE_URL: `file:${storeDir}`,
      SBM_BASE_URL: 'https://sbm.example',
      SBM_PUBLIC_LIMIT_PER_MIN: '0',
      SBM_MONTHLY_ALLOWANCE: '1000000000',
    });
    // The request log is written as in production, to a file instead of standard output.
    const requestLog = createWriteStream(join(dir, 'requests.log'));
    const gateway = await startGateway(config, { logSink: requestLog, now });
    const state = await openGatewayState(config.stateUrl);
    let apiKey: string;
    try {
      const account = await createAccount({ state, now }, 'api');
      apiKey = (await createApiKey({ state, now }, account.id)).key;
    } finally {
      await state.close();
    }
    return {
      url: gateway.url,
      apiKey,
      app: gateway.app,
      async close() {
        await gateway.close();
        await new Promise((resolve) => requestLog.end(resolve));
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
