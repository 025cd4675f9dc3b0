/**
 * Our own reconnection of the node's WebSocket, instead of @polkadot/api's: the provider's built-in one
 * retries every `autoConnectMs` and prints a multi-line `API-WS` error on each failed try, so a node
 * that is down for ten minutes filled the logs. Here a drop that the first try heals (a recycled
 * socket) is silent; a node that stays down is logged once, the tries back off (doubling
 * up to `maxDelayMs`), a line says the node is still down at most once a minute
 * (the tries themselves are silent),
 * and the recovery is logged once.
 */
import type { WsProvider } from '@polkadot/api';

export interface ReconnectOptions {
  url: string;
  /**
   * First delay after a drop (default 100 ms, as the provider waited); doubles per failed try up to `maxDelayMs` (default 8 s,
   * well inside the 60 s a request waits for the connection to come back). Tries are silent.
   */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** At most one "still down" line per this interval (default 60 s). */
  stillDownEveryMs?: number;
  /** Where the three kinds of line go (stderr by default). */
  log?: (line: string) => void;
}

export interface Reconnector {
  /** Tries made since the client was created (for tests and stats). */
  readonly tries: number;
  stop(): void;
}

/**
 * Keeps `provider` (made with auto-connect off) connected until `stop()`. The first connection is
 * made here too, so a node that is not up yet is tried on the same backoff.
 */
export function keepConnected(provider: WsProvider, options: ReconnectOptions): Reconnector {
  const base = options.baseDelayMs ?? 100;
  const max = options.maxDelayMs ?? 8_000;
  const stillDownEveryMs = options.stillDownEveryMs ?? 60_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let stopped = false;
  let tries = 0;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  /** When the connection was lost (null: connected, or never connected yet). */
  let lostAt: number | null = null;
  /** Whether the loss was logged: a drop the first try heals (a recycled socket) is not worth a line. */
  let lossLogged = false;
  let lastStillDownAt = 0;
  let everConnected = false;

  const tryNow = () => {
    timer = undefined;
    if (stopped || provider.isConnected) return;
    tries += 1;
    provider.connect().catch(() => schedule());
  };
  const schedule = () => {
    if (stopped || timer) return;
    const delay = Math.min(max, base * 2 ** Math.min(failures, 30));
    failures += 1;
    timer = setTimeout(tryNow, delay);
    timer.unref?.();
  };

  const offConnected = provider.on('connected', () => {
    failures = 0;
    if (lostAt !== null && lossLogged) {
      log(`chain: reconnected to ${options.url} after ${Math.round((Date.now() - lostAt) / 1000)} s`);
    }
    lostAt = null;
    lossLogged = false;
    everConnected = true;
  });
  const offDisconnected = provider.on('disconnected', () => {
    if (stopped) return;
    const now = Date.now();
    if (everConnected && lostAt === null) {
      // The socket dropped: try again at once, silently.
      lostAt = now;
    } else if (lostAt !== null && !lossLogged) {
      // The first try failed too: the node is down.
      lossLogged = true;
      lastStillDownAt = now;
      log(`chain: lost the connection to ${options.url}; retrying with backoff up to every ${duration(max)}`);
    } else if (lostAt !== null && now - lastStillDownAt >= stillDownEveryMs) {
      lastStillDownAt = now;
      log(`chain: ${options.url} still unreachable after ${Math.round((now - lostAt) / 1000)} s; retrying`);
    }
    schedule();
  });
  tryNow();

  return {
    get tries() {
      return tries;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      offConnected();
      offDisconnected();
    },
  };
}

const duration = (ms: number): string => (ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`);
