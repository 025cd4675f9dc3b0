/**
 * What the browser tests run against: the published sandbox world (test/support/published-sandbox.ts)
 * copied to a temp folder, one emissions sample from the sandbox chain published into the copy (so the
 * emissions column and section have data), the sandbox chain itself for the tax check, and a real
 * gateway (`startGateway`, the same code `sbm-gateway serve` runs) over HTTP on a free port, with a
 * SQLite state and the world's fixed clock.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../gateway/auth/accounts.js';
import type { AuthDeps } from '../../gateway/auth/auth-deps.js';
import { createSignInLink } from '../../gateway/auth/sign-in-links.js';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/server.js';
import type { GatewayState } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';
import { sampleOnce } from '../../pipeline/emissions/sample-once.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import {
  NOW_MS,
  type PublishedSandbox,
  publishedSandbox,
  SANDBOX_OPTIONS,
} from '../support/published-sandbox.js';

export interface ExplorerWorld {
  world: PublishedSandbox;
  gateway: RunningGateway;
  /** The gateway's address, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  demoColdkey: string;
  /** A fresh subscriber account and a one-time sign-in link for it. */
  signInLink(): Promise<string>;
  /** Operator access to the same state file (another connection, as the CLI would open). */
  state: GatewayState;
  clock: { nowMs: number };
  close(): Promise<void>;
}

export async function startExplorerWorld(): Promise<ExplorerWorld> {
  const world = await publishedSandbox();
  const dir = await mkdtemp(join(tmpdir(), 'sbm-explorer-'));
  const storeDir = join(dir, 'store');
  await cp(world.storeDir, storeDir, { recursive: true });
  let devnet: RunningDevnet | null = null;
  let gateway: RunningGateway | null = null;
  let state: GatewayState | null = null;
  try {
    devnet = await startDevnet(SANDBOX_OPTIONS);
    // Published an hour after "now", as the burn run was: the watch's data is current too.
    const clock = { nowMs: NOW_MS + 3_600_000 };
    await sampleOnce({
      chainUrl: devnet.url,
      dbPath: join(dir, 'emissions.duckdb'),
      store: new FolderObjectStore(storeDir),
      baseUrl: 'http://127.0.0.1',
      keepRuns: 2,
      intervalMs: 300_000,
      concurrency: 8,
      now: () => new Date(clock.nowMs),
    });
    const stateUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
    const config = loadGatewayConfig({
      SBM_HOST: '127.0.0.1',
      SBM_PORT: '0',
      SBM_STATE_URL: stateUrl,
      SBM_STORE_URL: `file:${storeDir}`,
      SBM_CHAIN_URL: devnet.url,
      // Browsing many pages in a few seconds from one address: the per-IP minute limit is not under test.
      SBM_PUBLIC_LIMIT_PER_MIN: '0',
      // The sandbox's world, as under `make demo`: every page says so (and the screenshots show it).
      SBM_SANDBOX: '1',
    });
    const now = () => new Date(clock.nowMs);
    gateway = await startGateway(config, { now, log: () => {}, logSink: { write: () => true } });
    const origin = gateway.url;
    state = await openGatewayState(stateUrl);
    const auth: AuthDeps = { state, now };
    const running = { devnet, gateway, state };
    return {
      world,
      gateway,
      origin,
      // What `make demo` prints: after the demo's coldkey swap, the successor that holds the stake today.
      demoColdkey: devnet.holderColdkey,
      state,
      clock,
      async signInLink() {
        const account = await createAccount(auth, 'subscriber');
        return (await createSignInLink(auth, account.id, { baseUrl: origin })).url;
      },
      async close() {
        await running.gateway.close();
        await running.state.close();
        await running.devnet.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await gateway?.close().catch(() => {});
    await state?.close().catch(() => {});
    await devnet?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
