/**
 * The gateway app in-process over a published run: real SnapshotCaches over the folder store, a real
 * state engine, a clock the test moves, and captured log lines. Requests go through `app.fetch` (the
 * router), or with `transport: 'http'` over a real HTTP connection to the gateway's Node listener, where
 * snapshot reads take the fast path and everything else the router, as in production.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type GatewayApp, type RequestLogEntry } from '../../gateway/app.js';
import { createAccount } from '../../gateway/auth/accounts.js';
import { createApiKey } from '../../gateway/auth/api-keys.js';
import type { AuthDeps } from '../../gateway/auth/auth-deps.js';
import { createSession } from '../../gateway/auth/sessions.js';
import type { OrderServices } from '../../gateway/orders/order-services.js';
import type { AccountServices } from '../../gateway/routes/account.js';
import { nodeListener } from '../../gateway/server.js';
import { burnsFreshnessRule, emissionsFreshnessRule } from '../../gateway/snapshots/freshness-rules.js';
import { SnapshotCache } from '../../gateway/snapshots/snapshot-cache.js';
import type { GatewayState } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { EMISSIONS_NAMESPACE } from '../../pipeline/contract/snapshot-paths.js';
import { FolderObjectStore } from '../../pipeline/store/index.js';
import type { ColdkeyChain } from '../../pipeline/tax/chain-record/coldkey-chain.js';

export interface GatewayUnderTest {
  app: GatewayApp;
  state: GatewayState;
  auth: AuthDeps;
  logs: RequestLogEntry[];
  errors: unknown[];
  clock: { nowMs: number };
  /** With `transport: 'http'`: how many requests each path answered. */
  via: { fast: number; router: number };
  /** With `transport: 'http'`: the server's base URL. */
  url: string | null;
  get(path: string, headers?: Record<string, string>, ip?: string): Promise<Response>;
  apiKey(): Promise<{ key: string; keyId: string; accountId: string }>;
  sessionCookie(): Promise<string>;
  close(): Promise<void>;
}

export async function gatewayUnderTest(options: {
  storeDir: string;
  stateUrl: string;
  nowMs: number;
  baseUrl: string;
  publicLimitPerMinute?: number;
  monthlyAllowance?: number;
  /** The node the tax check reads; none: uncached checks answer 503. */
  taxChain?: ColdkeyChain;
  /** Tax orders (checkout, status, pack, webhook); none: no order opens and nothing is sold. */
  orders?: OrderServices;
  /** The self-serve API plan's services (mail, Stripe); none: those routes answer 503. */
  account?: AccountServices;
  /** A clock shared with other parts of the test (another gateway, the Stripe stand-in). */
  clock?: { nowMs: number };
  /** `fetch` (default): `app.fetch` in-process; `http`: a real server on 127.0.0.1 (the `ip` argument is then ignored). */
  transport?: 'fetch' | 'http';
  /** `SBM_SANDBOX=1`: the explorer's pages say they show the sandbox's synthetic world. */
  sandbox?: boolean;
}): Promise<GatewayUnderTest> {
  const clock = options.clock ?? { nowMs: options.nowMs };
  const now = () => new Date(clock.nowMs);
  const store = new FolderObjectStore(options.storeDir);
  const errors: unknown[] = [];
  const burns = new SnapshotCache(store, '', burnsFreshnessRule, (e) => errors.push(e));
  const emissions = new SnapshotCache(store, EMISSIONS_NAMESPACE, emissionsFreshnessRule, (e) =>
    errors.push(e),
  );
  await burns.refresh();
  await emissions.refresh();
  const state = await openGatewayState(options.stateUrl);
  const logs: RequestLogEntry[] = [];
  const app = buildApp({
    state,
    burns,
    emissions,
    now,
    baseUrl: options.baseUrl,
    monthlyAllowance: options.monthlyAllowance ?? 10_000,
    publicLimitPerMinute: options.publicLimitPerMinute ?? 0,
    taxChain: options.taxChain ?? null,
    ...(options.orders ? { orders: options.orders } : {}),
    ...(options.account ? { account: options.account } : {}),
    ...(options.sandbox ? { sandbox: true } : {}),
    log: (entry) => logs.push(entry),
    onError: (error) => errors.push(error),
  });
  const auth: AuthDeps = { state, now };
  const via = { fast: 0, router: 0 };
  let server: Server | null = null;
  let url: string | null = null;
  if (options.transport === 'http') {
    const listening = createServer(nodeListener(app, (path) => via[path]++));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    server = listening;
    url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }
  return {
    app,
    state,
    auth,
    logs,
    errors,
    clock,
    via,
    url,
    get: (path, headers = {}, ip = '203.0.113.7') =>
      url
        ? fetch(`${url}${path}`, { headers })
        : app.fetch(new Request(`http://gateway.test${path}`, { headers }), { ip }),
    async apiKey() {
      const account = await createAccount(auth, 'api');
      const created = await createApiKey(auth, account.id);
      return { key: created.key, keyId: created.record.id, accountId: account.id };
    },
    async sessionCookie() {
      const account = await createAccount(auth, 'subscriber');
      return (await createSession(auth, account.id)).cookieValue;
    },
    async close() {
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      burns.stop();
      emissions.stop();
      await app.close();
      await state.close();
    },
  };
}
