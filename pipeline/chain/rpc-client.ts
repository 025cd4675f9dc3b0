/**
 * The one door to the node: JSON-RPC over a WebSocket that reconnects by itself, a bound on requests in
 * flight (a remote node must not be flooded), and retries with exponential backoff, so that a flaky
 * node or a dropped socket slows a collection down instead of failing it.
 */
import { WsProvider } from '@polkadot/api';
import { ChainUnavailableError, RpcError } from './chain-errors.js';
import { Limiter } from './limiter.js';

export interface RpcClientOptions {
  url: string;
  /** Requests in flight at most (default 16). */
  concurrency?: number;
  /** Attempts per request before giving up (default 12, about 30 s of backoff in all). */
  maxAttempts?: number;
  /** First backoff delay; doubles per attempt up to `maxDelayMs` (defaults 50 ms and 4 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a request waits for a dropped connection to come back (default 60 s). */
  reconnectTimeoutMs?: number;
  /** How long to wait for the first connection (default 15 s). */
  connectTimeoutMs?: number;
  /** Per-request timeout (default 30 s). */
  requestTimeoutMs?: number;
  /** Delay between reconnection attempts after a drop (default 100 ms); each failed one logs a line. */
  autoConnectMs?: number;
}

export interface RpcClient {
  send<T>(method: string, params: unknown[]): Promise<T>;
  /** Requests sent, including retries (for benchmarks and progress). */
  readonly stats: { requests: number; retries: number };
  close(): Promise<void>;
}

export async function connectRpc(options: RpcClientOptions): Promise<RpcClient> {
  const provider = new WsProvider(
    options.url,
    options.autoConnectMs ?? 100,
    undefined,
    options.requestTimeoutMs ?? 30_000,
  );
  // The provider logs and emits connection errors on its own; it keeps reconnecting, we keep retrying.
  provider.on('error', () => undefined);
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      provider.isReady,
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new ChainUnavailableError(`no connection to ${options.url} within ${connectTimeoutMs} ms`),
            ),
          connectTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    await provider.disconnect().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return new RetryingClient(provider, options);
}

class RetryingClient implements RpcClient {
  readonly stats = { requests: 0, retries: 0 };
  readonly #provider: WsProvider;
  readonly #limiter: Limiter;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #reconnectTimeoutMs: number;

  constructor(provider: WsProvider, options: RpcClientOptions) {
    this.#provider = provider;
    this.#limiter = new Limiter(options.concurrency ?? 16);
    this.#maxAttempts = options.maxAttempts ?? 12;
    this.#baseDelayMs = options.baseDelayMs ?? 50;
    this.#maxDelayMs = options.maxDelayMs ?? 4_000;
    this.#reconnectTimeoutMs = options.reconnectTimeoutMs ?? 60_000;
  }

  async send<T>(method: string, params: unknown[]): Promise<T> {
    let lastError = '';
    let attempt = 0;
    while (attempt < this.#maxAttempts) {
      // A dropped socket is not the request's fault: wait for the provider to reconnect without
      // spending an attempt (bounded by the reconnect timeout), then send again.
      await this.#whenConnected(method);
      try {
        return await this.#limiter.run(() => {
          this.stats.requests += 1;
          return this.#provider.send<T>(method, params);
        });
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        this.stats.retries += 1;
        if (!this.#provider.isConnected) continue;
        attempt += 1;
        const delay = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 1));
        // Jitter spreads the retries of many workers.
        await sleep(delay / 2 + Math.random() * (delay / 2));
      }
    }
    throw new RpcError(method, this.#maxAttempts, lastError);
  }

  async #whenConnected(method: string): Promise<void> {
    if (this.#provider.isConnected) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new ChainUnavailableError(`${method}: node unreachable for ${this.#reconnectTimeoutMs} ms`));
      }, this.#reconnectTimeoutMs);
      const off = this.#provider.on('connected', () => {
        clearTimeout(timer);
        off();
        resolve();
      });
      if (this.#provider.isConnected) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  async close(): Promise<void> {
    await this.#provider.disconnect().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
