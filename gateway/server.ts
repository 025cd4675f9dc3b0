/**
 * The gateway's server start-up on Node: wires the configured state and object store into the app and
 * serves it: the snapshot reads through the app's fast path on Node's own request and response objects,
 * everything else through @hono/node-server. With `gateway/cli.ts`, the only gateway file that runs a
 * server (`fast-path.ts` writes to the response objects it is given).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { EMISSIONS_NAMESPACE } from '../pipeline/contract/snapshot-paths.js';
import { openObjectStore } from '../pipeline/store/index.js';
import { createColdkeyChain } from '../pipeline/tax/chain-record/coldkey-chain.js';
import { billingStripeClient, stripePagesOrigins } from './account/stripe-billing.js';
import { buildApp, type GatewayApp, type RequestLogEntry } from './app.js';
import { leaseOptions } from './auth/allowance.js';
import type { GatewayConfig } from './config.js';
import { NodeHeaders, type NodeRequestLike } from './fast-path.js';
import { createGatewayMetrics } from './metrics/gateway-metrics.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { outboxMailer, smtpMailer } from './orders/mailer.js';
import { alertLine, type OrderAlert } from './orders/order-alerts.js';
import { orderServicesFrom, orderStartupNotes } from './orders/order-services.js';
import { type LogSink, requestLogTo } from './request-log.js';
import type { AccountServices } from './routes/account.js';
import { burnsFreshnessRule, emissionsFreshnessRule } from './snapshots/freshness-rules.js';
import { SnapshotCache } from './snapshots/snapshot-cache.js';
import { openGatewayState } from './state/open-gateway-state.js';

export interface RunningGateway {
  url: string;
  /** The metrics listener's `/metrics` URL, when SBM_METRICS_PORT is set. */
  metricsUrl: string | null;
  app: GatewayApp;
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  /** Receives each request's log entry instead of the log sink (tests read the entries). */
  log?: (entry: RequestLogEntry) => void;
  /** Where the request log's lines go; standard output by default. */
  logSink?: LogSink;
  onError?: (error: unknown) => void;
  /** Receives order alerts instead of stderr. */
  alert?: (alert: OrderAlert) => void;
  now?: () => Date;
}

export async function startGateway(
  config: GatewayConfig,
  options: StartGatewayOptions = {},
): Promise<RunningGateway> {
  const onError =
    options.onError ??
    ((error: unknown) =>
      process.stderr.write(`${JSON.stringify({ level: 'error', message: errorMessage(error) })}\n`));
  const requestLog = requestLogTo(options.logSink ?? process.stdout);
  const log = options.log ?? requestLog.log;
  const state = await openGatewayState(config.stateUrl);
  const store = openObjectStore(config.storeUrl, config.s3);
  const burns = new SnapshotCache(store, '', burnsFreshnessRule, onError);
  const emissions = new SnapshotCache(store, EMISSIONS_NAMESPACE, emissionsFreshnessRule, onError);
  // A gateway may start before the first publication: it answers 503 until a manifest appears.
  await Promise.all([burns.refresh().catch(onError), emissions.refresh().catch(onError)]);
  burns.start(config.manifestPollMs);
  emissions.start(config.manifestPollMs);
  // Connected on the first tax check, so a gateway starts (and serves /api/v1) without a node.
  const taxChain = createColdkeyChain({ url: config.chainUrl });
  // Order alerts (a payment that does not match its order, ...) go to stderr as JSON lines.
  const alert = options.alert ?? ((entry: OrderAlert) => process.stderr.write(alertLine(entry)));
  for (const note of orderStartupNotes(config.orders)) process.stderr.write(`note: ${note}\n`);
  const orders = orderServicesFrom(config.orders, store, alert);
  const now = options.now ?? (() => new Date());
  const metrics =
    config.metrics.port === null
      ? null
      : createGatewayMetrics({
          state,
          burns,
          emissions,
          now,
          fulfilMaxAttempts: config.orders.fulfilMaxAttempts,
          onError,
        });
  const account = accountServicesFrom(config);

  const app = buildApp({
    state,
    burns,
    emissions,
    now,
    baseUrl: config.baseUrl,
    monthlyAllowance: config.monthlyAllowance,
    allowanceLease: leaseOptions(config.allowanceLease, config.gatewayInstances),
    publicLimitPerMinute: config.publicLimitPerMinute,
    trustProxy: config.trustProxy,
    sandbox: config.sandbox,
    taxChain,
    orders,
    // The one hook of the request metrics: each answered request's log entry is counted.
    log: metrics
      ? (entry) => {
          metrics.observe(entry);
          log(entry);
        }
      : log,
    account,
    onError,
  });
  const server = await listen(app, config.host, config.port);
  const address = server.address() as AddressInfo;
  const metricsServer =
    metrics && config.metrics.port !== null
      ? await startMetricsServer(metrics.registry, config.metrics.host, config.metrics.port, onError)
      : null;
  return {
    url: `http://${config.host}:${address.port}`,
    metricsUrl: metricsServer?.url ?? null,
    app,
    async close() {
      burns.stop();
      emissions.stop();
      await metricsServer?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await taxChain.close();
      requestLog.flush();
      await state.close();
      account.mailer?.close();
    },
  };
}

/** How long an idle kept-alive connection is kept open (above nginx's 60 s upstream default). */
export const KEEP_ALIVE_MS = 65_000;

function listen(app: GatewayApp, hostname: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(nodeListener(app));
    // An idle kept-alive connection stays open longer than a proxy in front keeps it for reuse (nginx's
    // upstream `keepalive_timeout`, 60 s by default): closed first by Node (5 s by default), a request the
    // proxy or a client sends on it as it closes is lost ("upstream prematurely closed", a 502).
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    server.on('clientError', answerClientError);
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} on ${hostname} is taken (SBM_PORT, or serve --port): stop what listens there, or choose another`,
            )
          : error,
      ),
    );
    server.listen(port, hostname, () => resolve(server));
  });
}

/**
 * The gateway's Node request listener: the fast path first (snapshot reads), else the fetch-style app
 * through @hono/node-server. Tests serve an in-process app with it to run the suites on both paths.
 */
export function nodeListener(
  app: GatewayApp,
  /** Told which path each request took (tests; a place to hang per-path counters). */
  observe?: (via: 'fast' | 'router') => void,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const viaRouter = getRequestListener((request: Request, env: { incoming: NodeRequestLike }) =>
    app.fetch(request, {
      ip: env.incoming.socket.remoteAddress ?? 'unknown',
      headers: new NodeHeaders(env.incoming.headers),
    }),
  );
  if (observe) {
    return (incoming, outgoing) => {
      const fast = app.fastPath(incoming, outgoing);
      observe(fast ? 'fast' : 'router');
      if (!fast) void viaRouter(incoming, outgoing);
    };
  }
  return (incoming, outgoing) => {
    if (!app.fastPath(incoming, outgoing)) void viaRouter(incoming, outgoing);
  };
}

/**
 * Requests Node's HTTP parser rejects (a bad byte in a header, headers over `maxHeaderSize`, a broken
 * request line) never reach the router, and Node would answer them with an empty body. They get the
 * gateway's one error shape here instead, and the connection is closed: after a parse error the rest
 * of the byte stream cannot be framed into requests. Statuses are Node's own choices: 431 for headers
 * too large (RFC 6585; the 400 of a plain bad request would hide which limit was hit), 413 for chunk
 * extensions too large, 408 for a request that did not arrive in time, 400 for everything else.
 */
function answerClientError(error: NodeJS.ErrnoException & { reason?: unknown }, socket: Duplex): void {
  // Node's own rule: answer only if nothing of an in-flight response was written to this socket yet,
  // or the peer would read our bytes inside that response. `_httpMessage` is how Node itself checks.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = describeClientError(error);
  const body = JSON.stringify({ detail });
  socket.write(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  // As Node does after its own answer: the bytes are queued, the socket is done.
  socket.destroy();
}

function describeClientError(error: NodeJS.ErrnoException & { reason?: unknown }): [number, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'Request header fields too large'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'Chunk extensions too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'Request not received in time'];
    default:
      // llhttp's reason is a fixed phrase ("Invalid header value char"), never the caller's bytes.
      return [
        400,
        'Bad Request',
        typeof error.reason === 'string' ? `Bad request: ${error.reason}` : 'Bad request',
      ];
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The API plan's services from the configuration: mail as the orders send it, Stripe pinned. */
function accountServicesFrom(config: GatewayConfig): AccountServices {
  const { orders, apiPlan } = config;
  return {
    mailer: orders.smtpUrl
      ? smtpMailer(orders.smtpUrl, orders.mailFrom)
      : outboxMailer(orders.outboxDir, orders.mailFrom),
    stripe: orders.stripeSecretKey ? billingStripeClient(orders.stripeSecretKey, orders.stripeApiBase) : null,
    priceId: apiPlan.priceId,
    webhookSecret: apiPlan.webhookSecret,
    stripePages: stripePagesOrigins(orders.stripeApiBase),
  };
}
