/**
 * The one door to the node: JSON-RPC over a WebSocket that reconnects by itself, a bound on requests in
 * flight (a remote node must not be flooded), and retries with exponential backoff, so that a flaky
 * node or a dropped socket slows a collection down instead of failing it.
 */
import { WsProvider } from '@polkadot/api';
import { ChainUnavailableError, RpcError } from './chain-errors.js';
import { Limiter } from './limiter.js';
import { keepConnected, type ReconnectOptions, type Reconnector } from './reconnect.js';

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
  /** Reconnection after a drop (see reconnect.ts): backoff and where its few lines go. */
  reconnect?: Omit<ReconnectOptions, 'url'>;
}

export interface RpcClient {
  send<T>(method: string, params: unknown[]): Promise<T>;
  /** Requests sent, including retries (for benchmarks and progress), and connection tries. */
  readonly stats: { requests: number; retries: number; readonly reconnectTries: number };
  close(): Promise<void>;
}

export async function connectRpc(options: RpcClientOptions): Promise<RpcClient> {
  // Auto-connect off: the provider's own retries log every failed try; keepConnected logs a drop once.
  const provider = new WsProvider(options.url, false, undefined, options.requestTimeoutMs ?? 30_000);
  provider.on('error', () => undefined);
  const reconnector = keepConnected(provider, { ...options.reconnect, url: options.url });
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
    reconnector.stop();
    await provider.disconnect().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return new RetryingClient(provider, reconnector, options);
}

class RetryingClient implements RpcClient {
  readonly stats: RpcClient['stats'];
  readonly #provider: WsProvider;
  readonly #limiter: Limiter;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #reconnectTimeoutMs: number;

  readonly #reconnector: Reconnector;

  constructor(provider: WsProvider, reconnector: Reconnector, options: RpcClientOptions) {
    this.#provider = provider;
    this.#reconnector = reconnector;
    this.stats = {
      requests: 0,
      retries: 0,
      get reconnectTries() {
        return reconnector.tries;
      },
    };
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
    this.#reconnector.stop();
    await this.#provider.disconnect().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
