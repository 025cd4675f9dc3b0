import { ConfigError, type Env, readInteger } from '../../pipeline/config.js';

/**
 * Where `/metrics` listens: `SBM_METRICS_PORT` (unset or empty: no metrics listener at all) on
 * `SBM_METRICS_HOST` (loopback by default: Prometheus scrapes from the same host, or through a tunnel
 * or a private interface named deliberately). Never the public port.
 */
export interface MetricsConfig {
  port: number | null;
  host: string;
}

export function readMetricsConfig(env: Env, publicPort: number): MetricsConfig {
  const raw = env['SBM_METRICS_PORT'];
  const port = raw === undefined || raw === '' ? null : readInteger(env, 'SBM_METRICS_PORT', 0, 0);
  if (port !== null && port > 65_535)
    throw new ConfigError(`SBM_METRICS_PORT must be at most 65535, got "${port}"`);
  if (port !== null && port !== 0 && port === publicPort) {
    throw new ConfigError(
      `SBM_METRICS_PORT is the public port (SBM_PORT=${publicPort}): metrics need a listener of their own`,
    );
  }
  return { port, host: env['SBM_METRICS_HOST'] || '127.0.0.1' };
}
