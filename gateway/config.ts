/**
 * The gateway's configuration: read once from the environment by `gateway/cli.ts` (flags may
 * override it there) and passed down as a typed object. No other gateway module reads `process.env`.
 */
import {
  ConfigError,
  DEFAULT_CHAIN_PORT,
  type Env,
  readInteger,
  readS3Settings,
  type S3Settings,
} from '../pipeline/config.js';
import {
  DEFAULT_GATEWAY_INSTANCES,
  DEFAULT_LEASE_UNITS,
  DEFAULT_MONTHLY_ALLOWANCE,
} from './auth/allowance.js';
import { DEFAULT_SESSION_DAYS } from './auth/sessions.js';
import { DEFAULT_PUBLIC_LIMIT_PER_MIN } from './auth/window-limiter.js';
import { type MetricsConfig, readMetricsConfig } from './metrics/metrics-config.js';
import { type OrderConfig, readOrderConfig } from './orders/order-config.js';
import { parseStateUrl } from './state/state-url.js';

export interface GatewayConfig {
  /** Interface to listen on; loopback by default, so exposing the gateway is a deliberate choice. */
  host: string;
  port: number;
  /** Gateway state: `sqlite:./data/gateway.sqlite` (embedded) or `postgres://...` (several instances). */
  stateUrl: string;
  /** Object store the pipeline publishes to: `file:./data/snapshots` or `s3://bucket/prefix`. */
  storeUrl: string;
  /** Public base URL of the service, without a trailing slash. */
  baseUrl: string;
  /** The node the tax check reads (`SBM_CHAIN_URL`, as the pipeline's); connected on the first check. */
  chainUrl: string;
  /** Unauthenticated `/api/v1` requests per minute per IP address; 0 turns the limit off. */
  publicLimitPerMinute: number;
  /**
   * How many proxies in front of the gateway append to `X-Forwarded-For` (`SBM_TRUST_PROXY`). 0: the
   * per-IP limits count the socket's address; N > 0: the N-th entry from the right (see client-ip.ts).
   * Set it to exactly the number of proxies you run: one more lets clients pick their own address.
   */
  trustProxy: number;
  /** Successful requests per billing period per account, shared by its keys. */
  monthlyAllowance: number;
  /**
   * Allowance leases (`SBM_ALLOWANCE_LEASE`, requests per lease; 0 counts every request in the shared
   * state) and the most gateway instances that share one state (`SBM_GATEWAY_INSTANCES`): leases stop
   * when fewer than 2 × lease × instances requests of an account's allowance are left.
   */
  allowanceLease: number;
  gatewayInstances: number;
  /** How often the gateway looks for a new published manifest, in milliseconds. */
  manifestPollMs: number;
  /** Lifetime of subscriber sessions created by the operator CLI, in days. */
  sessionDays: number;
  s3: S3Settings;
  /** Tax orders: the order secret, Stripe, SKU prices, mail (see orders/order-config.ts). */
  orders: OrderConfig;
  /** The `/metrics` listener (SBM_METRICS_PORT, SBM_METRICS_HOST); port null: none. */
  metrics: MetricsConfig;
  /** The self-serve API plan; Stripe's key, API base and mail settings are the orders'. */
  apiPlan: ApiPlanConfig;
  /** `SBM_SANDBOX=1`: the published data is the sandbox's synthetic world, and the explorer says so on every page. */
  sandbox: boolean;
}

export interface ApiPlanConfig {
  /** `SBM_API_PLAN_PRICE`: the Stripe Price id of the plan (`price_…`); null: subscribe answers 503. */
  priceId: string | null;
  /**
   * `STRIPE_BILLING_WEBHOOK_SECRET`, the signing secret of the `/account/webhooks/stripe` endpoint;
   * defaults to `STRIPE_WEBHOOK_SECRET` (one endpoint secret for both, as the stand-in uses).
   */
  webhookSecret: string | null;
}

export function readApiPlanConfig(env: Env): ApiPlanConfig {
  const priceId = env['SBM_API_PLAN_PRICE'] || null;
  if (priceId !== null && !/^price_[A-Za-z0-9_]+$/.test(priceId)) {
    throw new ConfigError(`SBM_API_PLAN_PRICE must be a Stripe Price id (price_…), got "${priceId}"`);
  }
  return {
    priceId,
    webhookSecret: env['STRIPE_BILLING_WEBHOOK_SECRET'] || env['STRIPE_WEBHOOK_SECRET'] || null,
  };
}

export const GATEWAY_DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  stateUrl: 'sqlite:./data/gateway.sqlite',
  storeUrl: 'file:./data/snapshots',
  manifestPollMs: 30_000,
} as const;

export function loadGatewayConfig(env: Env): GatewayConfig {
  const port = readInteger(env, 'SBM_PORT', GATEWAY_DEFAULTS.port, 0);
  if (port > 65_535) throw new ConfigError(`SBM_PORT must be at most 65535, got "${port}"`);
  const stateUrl = env['SBM_STATE_URL'] || GATEWAY_DEFAULTS.stateUrl;
  try {
    // Validate the form now so a typo fails at start-up with the accepted forms in the message.
    parseStateUrl(stateUrl);
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  return {
    host: env['SBM_HOST'] || GATEWAY_DEFAULTS.host,
    port,
    stateUrl,
    storeUrl: env['SBM_STORE_URL'] || GATEWAY_DEFAULTS.storeUrl,
    baseUrl: (env['SBM_BASE_URL'] || `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
    chainUrl: env['SBM_CHAIN_URL'] || `ws://127.0.0.1:${DEFAULT_CHAIN_PORT}`,
    publicLimitPerMinute: readInteger(env, 'SBM_PUBLIC_LIMIT_PER_MIN', DEFAULT_PUBLIC_LIMIT_PER_MIN, 0),
    trustProxy: readInteger(env, 'SBM_TRUST_PROXY', 0, 0),
    monthlyAllowance: readInteger(env, 'SBM_MONTHLY_ALLOWANCE', DEFAULT_MONTHLY_ALLOWANCE, 1),
    allowanceLease: readInteger(env, 'SBM_ALLOWANCE_LEASE', DEFAULT_LEASE_UNITS, 0),
    gatewayInstances: readInteger(env, 'SBM_GATEWAY_INSTANCES', DEFAULT_GATEWAY_INSTANCES, 1),
    manifestPollMs: readInteger(env, 'SBM_MANIFEST_POLL_MS', GATEWAY_DEFAULTS.manifestPollMs, 100),
    sessionDays: readInteger(env, 'SBM_SESSION_DAYS', DEFAULT_SESSION_DAYS, 1),
    s3: readS3Settings(env),
    orders: readOrderConfig(env),
    metrics: readMetricsConfig(env, port),
    apiPlan: readApiPlanConfig(env),
    sandbox: env['SBM_SANDBOX'] === '1',
  };
}
