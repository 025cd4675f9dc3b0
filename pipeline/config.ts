/**
 * The batch pipeline's configuration: read once from the environment by `pipeline/cli.ts`
 * (flags override it there) and passed down as a typed object. No other module reads `process.env`.
 */
export interface PipelineConfig {
  /** WebSocket URL of a subtensor node: the sandbox chain by default, `wss://...` for mainnet. */
  chainUrl: string;
  /** CoinGecko-compatible API base including its version path. */
  priceUrl: string;
  /** The DuckDB warehouse file analysts open read-only between runs. */
  warehousePath: string;
  /** The emissions watch's own DuckDB file (one writer per file). */
  emissionsPath: string;
  /** Object store: `file:./data/snapshots` (a folder) or `s3://bucket/prefix`. */
  storeUrl: string;
  /** Public base URL of the service; `method_url` and pack links are built from it. */
  baseUrl: string;
  /** How many published runs stay in the store after a new manifest. */
  keepRuns: number;
  /** Requests in flight against the node. */
  concurrency: number;
  /** S3 settings, from the standard AWS variables. */
  s3: S3Settings;
  /** The ports `sbm demo` listens on (0: any free port); each names its variable in errors. */
  demoPorts: DemoPorts;
}

/** Where `make demo` listens: the gateway (`SBM_PORT`), the sandbox chain and its price API, the Stripe stand-in. */
export interface DemoPorts {
  gateway: number;
  devnet: number;
  price: number;
  stripe: number;
}

/** The variable that sets each demo port, for the error that names a taken one. */
export const DEMO_PORT_VARIABLES: Readonly<Record<keyof DemoPorts, string>> = {
  gateway: 'SBM_PORT',
  devnet: 'SBM_DEVNET_PORT',
  price: 'SBM_PRICE_PORT',
  stripe: 'SBM_STRIPE_PORT',
};

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readInteger(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

export function readS3Settings(env: Env): S3Settings {
  return {
    endpoint: env['AWS_ENDPOINT_URL_S3'] || env['AWS_ENDPOINT_URL'] || undefined,
    region: env['AWS_REGION'] || env['AWS_DEFAULT_REGION'] || 'us-east-1',
    forcePathStyle:
      (env['SBM_S3_PATH_STYLE'] ?? '') === '1' ||
      Boolean(env['AWS_ENDPOINT_URL_S3'] || env['AWS_ENDPOINT_URL']),
  };
}

export const DEFAULT_CHAIN_PORT = 9944;

export function loadPipelineConfig(env: Env): PipelineConfig {
  return {
    chainUrl: env['SBM_CHAIN_URL'] || `ws://127.0.0.1:${DEFAULT_CHAIN_PORT}`,
    priceUrl: env['SBM_PRICE_URL'] || `http://127.0.0.1:${DEFAULT_CHAIN_PORT + 1}/api/v3`,
    warehousePath: env['SBM_WAREHOUSE'] || './data/burns.duckdb',
    emissionsPath: env['SBM_EMISSIONS_DB'] || './data/emissions.duckdb',
    storeUrl: env['SBM_STORE_URL'] || 'file:./data/snapshots',
    // The gateway's own default (gateway/config.ts): its address on SBM_PORT, so `SBM_PORT=8899 make demo`
    // publishes method links that point at the gateway it starts.
    baseUrl: (env['SBM_BASE_URL'] || `http://127.0.0.1:${readPort(env, 'SBM_PORT', 8787) || 8787}`).replace(
      /\/+$/,
      '',
    ),
    keepRuns: readInteger(env, 'SBM_KEEP_RUNS', 7, 1),
    concurrency: readInteger(env, 'SBM_CONCURRENCY', 16, 1),
    s3: readS3Settings(env),
    demoPorts: {
      gateway: readPort(env, DEMO_PORT_VARIABLES.gateway, 8787),
      devnet: readPort(env, DEMO_PORT_VARIABLES.devnet, DEFAULT_CHAIN_PORT),
      price: readPort(env, DEMO_PORT_VARIABLES.price, DEFAULT_CHAIN_PORT + 1),
      stripe: readPort(env, DEMO_PORT_VARIABLES.stripe, 12111),
    },
  };
}

function readPort(env: Env, name: string, fallback: number): number {
  const port = readInteger(env, name, fallback);
  if (port > 65_535) throw new ConfigError(`${name} must be a port 0..65535, got "${env[name]}"`);
  return port;
}
