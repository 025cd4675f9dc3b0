/**
 * The gateway's Prometheus metrics (prom-client), served on their own loopback listener
 * (metrics-server.ts), never on the public port. Request figures come from the request log's entries
 * (one hook in server.ts: route patterns, never URLs, so no token reaches a label); the snapshot, watch
 * and order figures are read when Prometheus scrapes.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { HOUR_MS } from '../../pipeline/time/utc-day.js';
import type { RequestLogEntry } from '../app.js';
import { isDeliveryFailing, isStuck } from '../orders/stuck-order.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import type { GatewayState } from '../state/gateway-state.js';
import { ORDER_STATUSES } from '../state/order-state.js';

export interface GatewayMetricsDeps {
  state: GatewayState;
  burns: SnapshotCache;
  emissions: SnapshotCache;
  now: () => Date;
  /** SBM_FULFIL_MAX_ATTEMPTS: when a paid order counts as stuck. */
  fulfilMaxAttempts: number;
  onError: (error: unknown) => void;
}

export interface GatewayMetrics {
  registry: Registry;
  /** Counts one answered request (called with each request log entry). */
  observe(entry: RequestLogEntry): void;
}

/** A paid order waiting longer than this for its pack is worth a look (before it is stuck). */
export const PAID_WAITING_MS = HOUR_MS;

/** Request latency buckets, in seconds: snapshot answers take a millisecond, a tax check seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createGatewayMetrics(deps: GatewayMetricsDeps): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'sbm_http_requests_total',
    help: 'Requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'sbm_http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: 'sbm_allowance_rejections_total',
    help: 'Requests refused with 429: limit="monthly" (an account past its allowance), "per_ip" (the public per-address limit) or "tax" (the tax routes\' hourly limit).',
    labelNames: ['limit'] as const,
    registers,
  });

  new Gauge({
    name: 'sbm_snapshot_age_seconds',
    help: "Age of the served data: now minus the run's checked-at time (burns: burns_checked_at; emissions: the latest sample).",
    labelNames: ['dataset'] as const,
    registers,
    collect() {
      this.reset();
      const nowMs = deps.now().getTime();
      for (const [dataset, cache, field] of [
        ['burns', deps.burns, 'burns_checked_at'],
        ['emissions', deps.emissions, 'checked_at'],
      ] as const) {
        const at = timeOf(cache.manifest?.[field]);
        if (at !== null) this.set({ dataset }, Math.max(0, (nowMs - at) / 1000));
      }
    },
  });
  new Gauge({
    name: 'sbm_snapshot_published_timestamp_seconds',
    help: "When the served run was published (its manifest's created_at), Unix seconds.",
    labelNames: ['dataset'] as const,
    registers,
    collect() {
      this.reset();
      for (const [dataset, cache] of [
        ['burns', deps.burns],
        ['emissions', deps.emissions],
      ] as const) {
        const at = timeOf(cache.manifest?.created_at);
        if (at !== null) this.set({ dataset }, at / 1000);
      }
    },
  });
  new Gauge({
    name: 'sbm_emissions_watch_last_sample_timestamp_seconds',
    help: "When the emissions watch last took a sample that it published (the emissions run's checked_at), Unix seconds.",
    registers,
    collect() {
      this.reset();
      const at = timeOf(deps.emissions.manifest?.['checked_at']);
      if (at !== null) this.set(at / 1000);
    },
  });

  // The order figures come from one read of the orders per scrape, shared by the five gauges.
  const orderFigures = sharedRead(async (): Promise<OrderFigures | null> => {
    try {
      const orders = await deps.state.orders.listOrders();
      const now = deps.now();
      const figures: OrderFigures = { byStatus: new Map(), paidWaiting: 0, stuck: 0, deliveryFailing: 0 };
      for (const status of ORDER_STATUSES) figures.byStatus.set(status, 0);
      for (const order of orders) {
        figures.byStatus.set(order.status, (figures.byStatus.get(order.status) ?? 0) + 1);
        const paidFor = order.paidAt ? now.getTime() - order.paidAt.getTime() : 0;
        if (order.status === 'paid' && paidFor > PAID_WAITING_MS) figures.paidWaiting += 1;
        if (isStuck(order, deps.fulfilMaxAttempts, now)) figures.stuck += 1;
        if (isDeliveryFailing(order)) figures.deliveryFailing += 1;
      }
      return figures;
    } catch (error) {
      deps.onError(error);
      return null;
    }
  });
  new Gauge({
    name: 'sbm_state_up',
    help: "1 if the gateway state answered the scrape's read of the orders, 0 if not.",
    registers,
    async collect() {
      this.set((await orderFigures()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'sbm_orders',
    help: 'Tax orders by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const figures = await orderFigures();
      this.reset();
      for (const [status, count] of figures?.byStatus ?? []) this.set({ status }, count);
    },
  });
  const orderGauge = (name: string, help: string, pick: (figures: OrderFigures) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const figures = await orderFigures();
        this.reset();
        if (figures) this.set(pick(figures));
      },
    });
  orderGauge(
    'sbm_orders_paid_waiting_over_1h',
    'Paid orders whose pack is still not ready an hour after the payment.',
    (f) => f.paidWaiting,
  );
  orderGauge(
    'sbm_orders_stuck',
    'Paid orders out of fulfilment tries: they wait for `sbm-gateway orders retry`.',
    (f) => f.stuck,
  );
  orderGauge(
    'sbm_orders_delivery_failing',
    'Fulfilled orders whose delivery email failed and has not gone out since.',
    (f) => f.deliveryFailing,
  );

  return {
    registry,
    observe(entry) {
      const status = String(entry.status);
      requests.inc({ route: entry.route, method: entry.method, status });
      latency.observe({ route: entry.route, method: entry.method }, entry.duration_ms / 1000);
      if (entry.status === 429) {
        const limit = entry.route.startsWith('/tax') ? 'tax' : entry.account ? 'monthly' : 'per_ip';
        rejections.inc({ limit });
      }
    },
  };
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

interface OrderFigures {
  byStatus: Map<string, number>;
  paidWaiting: number;
  stuck: number;
  deliveryFailing: number;
}

/** One read for every caller within a second (the gauges of one scrape). */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    if (!pending) {
      const current = read();
      pending = current;
      current.finally(() => {
        setTimeout(() => {
          if (pending === current) pending = null;
        }, 1_000).unref();
      });
    }
    return pending;
  };
}
