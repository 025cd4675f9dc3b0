/**
 * The API plan's stack as `sbm demo` starts it, on the small published sandbox world: the Stripe
 * stand-in with the plan's Price and both webhooks (`startDemoOrders`, the demo's own function), and
 * two gateway instances (`startGateway`, what `sbm-gateway serve` runs) over HTTP on one SQLite state,
 * configured from the demo's settings with the outbox mailer. One clock drives the gateways and the
 * stand-in (its event times and signatures), so a test can make a month pass the way the stand-in's
 * time controls mean it; the demo runs both on the real clock.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../../gateway/config.js';
import type { OrderAlert } from '../../gateway/orders/order-alerts.js';
import { type RunningGateway, startGateway } from '../../gateway/server.js';
import { freePort } from '../../pipeline/demo/child-process.js';
import { type DemoOrders, startDemoOrders } from '../../pipeline/demo/demo-orders.js';
import { STATE_ENGINES, type TestStateStore } from '../gateway/state/state-engines.js';
import { NOW_MS, publishedSandbox } from '../support/published-sandbox.js';

export interface ApiPlanDemoStack {
  /** The public site (the first gateway instance), e.g. `http://127.0.0.1:41234`. */
  base: string;
  /** The second gateway instance on the same state. */
  secondBase: string;
  /** Where the outbox mailer writes the .eml files (sign-in links, key notices). */
  outbox: string;
  /** The stand-in and the demo's settings. */
  orders: DemoOrders;
  /** The clock of both gateways and the stand-in (milliseconds since the epoch, UTC). */
  clock: { nowMs: number };
  /** What the gateways reported as errors or order alerts: a clean walk leaves it empty. */
  problems: unknown[];
  close(): Promise<void>;
}

export async function startApiPlanDemoStack(): Promise<ApiPlanDemoStack> {
  const world = await publishedSandbox();
  const dir = await mkdtemp(join(tmpdir(), 'sbm-api-plan-demo-'));
  const outbox = join(dir, 'outbox');
  await mkdir(outbox);
  const clock = { nowMs: NOW_MS };
  const now = () => new Date(clock.nowMs);
  const problems: unknown[] = [];
  let state: TestStateStore | null = null;
  let orders: DemoOrders | null = null;
  const gateways: RunningGateway[] = [];
  try {
    state = await STATE_ENGINES[0]!.start();
    const ports = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${ports[0]}`;
    // No sandbox chain runs here: the tax check (not part of this flow) would fail to connect.
    orders = await startDemoOrders(dir, base, 'ws://127.0.0.1:9', {}, 0, () => clock.nowMs);
    const env = {
      ...orders.env,
      SBM_STATE_URL: state.url,
      SBM_STORE_URL: `file:${world.storeDir}`,
      SBM_OUTBOX_DIR: outbox,
      SBM_SANDBOX: '1',
      SBM_GATEWAY_INSTANCES: '2',
      // The demo's default allowance leases are on (SBM_ALLOWANCE_LEASE unset): the page and
      // /api/v1/usage must still say exactly 1 after one request, not the lease's size.
    };
    for (const port of ports) {
      gateways.push(
        await startGateway(loadGatewayConfig({ ...env, SBM_PORT: String(port) }), {
          now,
          logSink: { write: () => true },
          onError: (error) => problems.push(error),
          alert: (alert: OrderAlert) => problems.push(alert),
        }),
      );
    }
    const running = orders;
    const stateStore = state;
    return {
      base,
      secondBase: gateways[1]!.url,
      outbox,
      orders: running,
      clock,
      problems,
      async close() {
        for (const gateway of gateways.reverse()) await gateway.close();
        await running.close();
        await stateStore.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const gateway of gateways.reverse()) await gateway.close();
    await orders?.close();
    await state?.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
