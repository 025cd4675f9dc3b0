/**
 * The gateway's /metrics: on its own loopback listener when SBM_METRICS_PORT is set, absent otherwise,
 * never on the public port; requests by route and status, allowance rejections, snapshot and watch
 * ages from the published manifests, and the order figures from the state. A real gateway over HTTP,
 * a real SQLite state and a folder store published to by the real publisher.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { catalogueWithPrices } from '../../../gateway/orders/catalogue.js';
import { checkOrderRequest, createOrder } from '../../../gateway/orders/create-order.js';
import { runFulfilment } from '../../../gateway/orders/fulfilment-job.js';
import { orderTokens } from '../../../gateway/orders/order-token.js';
import { type RunningGateway, startGateway } from '../../../gateway/server.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { FolderObjectStore, publishRun } from '../../../pipeline/store/index.js';
import { ALICE, ORDER_SECRET, payThroughWebhook } from '../orders/order-world.js';

const NOW = new Date('2026-03-02T12:00:00Z');
const HOUR = 3_600_000;
let dir: string;
let gw: RunningGateway;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-metrics-'));
  const store = new FolderObjectStore(join(dir, 'store'));
  const body = new TextEncoder().encode('{}');
  await publishRun(store, {
    prefix: '',
    now: new Date(NOW.getTime() - 2 * HOUR),
    objects: [{ path: 'probe.json', body, contentType: 'application/json' }],
    meta: { burns_checked_at: new Date(NOW.getTime() - 3 * HOUR).toISOString() },
  });
  await publishRun(store, {
    prefix: 'emissions/',
    now: new Date(NOW.getTime() - 20 * 60_000),
    objects: [{ path: 'probe.json', body, contentType: 'application/json' }],
    meta: { checked_at: new Date(NOW.getTime() - 20 * 60_000).toISOString() },
  });

  // Three orders: one awaiting payment, one paid two hours ago whose build failed its only try (stuck),
  // one paid ten minutes ago and not tried yet.
  const stateUrl = `sqlite:${join(dir, 'gateway.sqlite')}`;
  const state = await openGatewayState(stateUrl);
  const order = (at: Date) =>
    createOrder(
      { state, now: () => at },
      checkOrderRequest(catalogueWithPrices(), 'uk-2025-26', [ALICE]),
      'checkout',
    );
  await order(NOW);
  const stuck = await order(new Date(NOW.getTime() - 2 * HOUR));
  await payThroughWebhook(state, stuck.id, new Date(NOW.getTime() - 2 * HOUR));
  await runFulfilment({
    state,
    store,
    now: () => new Date(NOW.getTime() - HOUR),
    baseUrl: 'https://sbm.example',
    tokens: orderTokens(ORDER_SECRET),
    mailer: { description: 'none', send: async () => {}, close: () => {} },
    buildPack: async () => {
      throw new Error('the published run cannot be read');
    },
    maxAttempts: 1,
    alert: () => {},
  });
  const fresh = await order(new Date(NOW.getTime() - 10 * 60_000));
  await payThroughWebhook(state, fresh.id, new Date(NOW.getTime() - 10 * 60_000));
  await state.close();

  const config = loadGatewayConfig({
    SBM_PORT: '0',
    SBM_METRICS_PORT: '0',
    SBM_STATE_URL: stateUrl,
    SBM_STORE_URL: `file:${join(dir, 'store')}`,
    SBM_PUBLIC_LIMIT_PER_MIN: '2',
    SBM_FULFIL_MAX_ATTEMPTS: '1',
  });
  gw = await startGateway(config, { now: () => NOW, log: () => {}, onError: () => {}, alert: () => {} });
});

afterAll(async () => {
  await gw?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `name{labels} value` lines of a scrape, as a map from the series to its value. */
function series(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

it('serves /metrics on its own loopback listener and never on the public port', async () => {
  expect(gw.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  expect(new URL(gw.metricsUrl!).port).not.toBe(new URL(gw.url).port);
  const publicAnswer = await fetch(`${gw.url}/metrics`);
  expect(publicAnswer.status).toBe(404);
  expect(await publicAnswer.text()).not.toContain('sbm_');
  const other = await fetch(new URL('/', gw.metricsUrl!));
  expect(other.status).toBe(404);
});

it('counts requests by route and status, the per-IP rejections, and reads snapshot ages and orders', async () => {
  for (let i = 0; i < 3; i++) await (await fetch(`${gw.url}/api/v1/subnets`)).arrayBuffer();
  await (await fetch(`${gw.url}/no/such/path`)).arrayBuffer();

  const answer = await fetch(gw.metricsUrl!);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await answer.text();
  const values = series(text);
  // The probe run has no subnets document: two admitted requests answer 404, the third is over the limit.
  expect(values.get('sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="404"}')).toBe(2);
  expect(values.get('sbm_http_requests_total{route="/api/v1/subnets",method="GET",status="429"}')).toBe(1);
  // /no/such/path, and the public port's /metrics asked by the first test: neither exists there.
  expect(values.get('sbm_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(2);
  expect(values.get('sbm_allowance_rejections_total{limit="per_ip"}')).toBe(1);
  expect(values.get('sbm_http_request_duration_seconds_count{route="/api/v1/subnets",method="GET"}')).toBe(3);
  // The scrape itself is not a gateway request: no route of /metrics appears.
  expect(text).not.toContain('route="/metrics"');

  expect(values.get('sbm_snapshot_age_seconds{dataset="burns"}')).toBe(3 * 3600);
  expect(values.get('sbm_snapshot_age_seconds{dataset="emissions"}')).toBe(20 * 60);
  expect(values.get('sbm_snapshot_published_timestamp_seconds{dataset="burns"}')).toBe(
    (NOW.getTime() - 2 * HOUR) / 1000,
  );
  expect(values.get('sbm_emissions_watch_last_sample_timestamp_seconds')).toBe(
    (NOW.getTime() - 20 * 60_000) / 1000,
  );

  expect(values.get('sbm_orders{status="created"}')).toBe(1);
  expect(values.get('sbm_orders{status="paid"}')).toBe(2);
  expect(values.get('sbm_orders{status="fulfilled"}')).toBe(0);
  expect(values.get('sbm_orders_paid_waiting_over_1h')).toBe(1);
  expect(values.get('sbm_orders_stuck')).toBe(1);
  expect(values.get('sbm_orders_delivery_failing')).toBe(0);
  expect(values.get('sbm_state_up')).toBe(1);
  // Figures about orders, never an order: no id, coldkey or email in a label.
  expect(text).not.toMatch(/ord_[0-9a-f]{8}|5GrwvaEF|@example/);
});

it('has no metrics listener when SBM_METRICS_PORT is unset, and refuses the public port for it', async () => {
  const config = loadGatewayConfig({
    SBM_PORT: '0',
    SBM_STATE_URL: `sqlite:${join(dir, 'plain.sqlite')}`,
    SBM_STORE_URL: `file:${join(dir, 'store')}`,
  });
  expect(config.metrics).toEqual({ port: null, host: '127.0.0.1' });
  const plain = await startGateway(config, { log: () => {}, onError: () => {}, alert: () => {} });
  try {
    expect(plain.metricsUrl).toBeNull();
    expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
  } finally {
    await plain.close();
  }
  expect(() => loadGatewayConfig({ SBM_PORT: '8080', SBM_METRICS_PORT: '8080' })).toThrow(
    /SBM_METRICS_PORT is the public port/,
  );
});
