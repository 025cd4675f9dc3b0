/**
 * The gateway on Node: wires the configured state and object store into the app and serves it with
 * @hono/node-server. With `gateway/cli.ts`, the only gateway file that touches Node's server APIs.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { EMISSIONS_NAMESPACE } from '../pipeline/contract/snapshot-paths.js';
import { openObjectStore } from '../pipeline/store/index.js';
import { buildApp, type GatewayApp, type RequestLogEntry } from './app.js';
import type { HeaderSource } from './auth/resolve-credential.js';
import type { GatewayConfig } from './config.js';
import { type LogSink, requestLogTo } from './request-log.js';
import { burnsFreshnessRule, emissionsFreshnessRule } from './snapshots/freshness-rules.js';
import { SnapshotCache } from './snapshots/snapshot-cache.js';
import { openGatewayState } from './state/open-gateway-state.js';

export interface RunningGateway {
  url: string;
  app: GatewayApp;
  close(): Promise<void>;
}

export interface StartGatewayOptions {
  /** Receives each request's log entry instead of the log sink (tests read the entries). */
  log?: (entry: RequestLogEntry) => void;
  /** Where the request log's lines go; standard output by default. */
  logSink?: LogSink;
  onError?: (error: unknown) => void;
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

  const app = buildApp({
    state,
    burns,
    emissions,
    now: options.now ?? (() => new Date()),
    baseUrl: config.baseUrl,
    monthlyAllowance: config.monthlyAllowance,
    publicLimitPerMinute: config.publicLimitPerMinute,
    trustProxy: config.trustProxy,
    log,
    onError,
  });
  const server = await listen(app, config.host, config.port);
  const address = server.address() as AddressInfo;
  return {
    url: `http://${config.host}:${address.port}`,
    app,
    async close() {
      burns.stop();
      emissions.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      requestLog.flush();
      await state.close();
    },
  };
}

function listen(app: GatewayApp, hostname: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: (request: Request, env: { incoming: ParsedRequest }) =>
          app.fetch(request, {
            ip: env.incoming.socket.remoteAddress ?? 'unknown',
            headers: incomingHeaders(env.incoming),
          }),
        hostname,
        port,
      },
      () => resolve(server),
    );
    server.once('error', reject);
  });
}

/** What the gateway reads of Node's own request object (HTTP/1 and HTTP/2 alike). */
interface ParsedRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** Node's parsed headers (names lower-cased; repeated values joined as Node joins them). */
function incomingHeaders(incoming: ParsedRequest): HeaderSource {
  return {
    get(name) {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
