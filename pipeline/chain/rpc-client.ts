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
  /** How long to wait for the first connection (default 15 s). */
  connectTimeoutMs?: number;
  /** Per-request timeout (default 30 s). */
  requestTimeoutMs?: number;
}

export interface RpcClient {
  send<T>(method: string, params: unknown[]): Promise<T>;
  /** Requests sent, including retries (for benchmarks and progress). */
  readonly stats: { requests: number; retries: number };
  close(): Promise<void>;
}

export async function connectRpc(options: RpcClientOptions): Promise<RpcClient> {
  const provider = new WsProvider(options.url, 250, undefined, options.requestTimeoutMs ?? 30_000);
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

  constructor(provider: WsProvider, options: RpcClientOptions) {
    this.#provider = provider;
    this.#limiter = new Limiter(options.concurrency ?? 16);
    this.#maxAttempts = options.maxAttempts ?? 12;
    this.#baseDelayMs = options.baseDelayMs ?? 50;
    this.#maxDelayMs = options.maxDelayMs ?? 4_000;
  }

  async send<T>(method: string, params: unknown[]): Promise<T> {
    let lastError = '';
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt++) {
      if (attempt > 1) {
        this.stats.retries += 1;
        const delay = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 2));
        // Jitter spreads the retries of many workers after a dropped socket.
        await sleep(delay / 2 + Math.random() * (delay / 2));
      }
      try {
        return await this.#limiter.run(() => {
          this.stats.requests += 1;
          return this.#provider.send<T>(method, params);
        });
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
    }
    throw new RpcError(method, this.#maxAttempts, lastError);
  }

  async close(): Promise<void> {
    await this.#provider.disconnect().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
