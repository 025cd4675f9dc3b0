import type { GatewayState } from './gateway-state.js';
import { openPostgresState, type PostgresStateOptions } from './postgres-state.js';
import { openSqliteState } from './sqlite-state.js';
import { parseStateUrl } from './state-url.js';

export interface OpenStateOptions extends PostgresStateOptions {
  /** Directory relative `sqlite:` paths resolve against; the working directory by default. */
  baseDir?: string;
}

/** Opens the state named by `SBM_STATE_URL` and brings its schema up to date before returning. */
export async function openGatewayState(url: string, options: OpenStateOptions = {}): Promise<GatewayState> {
  const location = parseStateUrl(url, options.baseDir);
  if (location.engine === 'sqlite') return openSqliteState(location.path);
  return openPostgresState(location.url, options);
}
