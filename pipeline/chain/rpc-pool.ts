/**
 * Several nodes of one chain behind one client: public archive nodes cap what each client may ask, so a
 * backfill may share its requests among several. Each request goes to the node with the fewest requests in
 * flight (each node keeps its own bound, retries and reconnection); all nodes must serve the same chain
 * (the same genesis hash), checked before anything is read.
 */
import { ChainUnavailableError } from './chain-errors.js';
import { connectRpc, type RpcClient, type RpcClientOptions } from './rpc-client.js';

/** Connects to every URL (`options.concurrency` requests in flight on each) and checks they are one chain. */
export async function connectRpcPool(
  urls: readonly string[],
  options: Omit<RpcClientOptions, 'url'>,
): Promise<RpcClient> {
  if (urls.length === 0) throw new ChainUnavailableError('no node URL given');
  const unique = [...new Set(urls)];
  if (unique.length === 1) return connectRpc({ ...options, url: unique[0]! });
  const settled = await Promise.allSettled(unique.map((url) => connectRpc({ ...options, url })));
  const clients = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.findIndex((s) => s.status === 'rejected');
  if (failed >= 0) {
    await Promise.all(clients.map((c) => c.close()));
    const reason = (settled[failed] as PromiseRejectedResult).reason;
    throw reason instanceof Error ? reason : new ChainUnavailableError(String(reason));
  }
  const geneses = await Promise.all(clients.map((c) => c.send<string>('chain_getBlockHash', [0])));
  const other = geneses.findIndex((g) => g !== geneses[0]);
  if (other >= 0) {
    await Promise.all(clients.map((c) => c.close()));
    throw new ChainUnavailableError(
      `${unique[other]} serves another chain (genesis ${geneses[other]}) than ${unique[0]} (genesis ${geneses[0]}): every --rpc must be a node of the same chain`,
    );
  }
  return new PooledClient(clients);
}

class PooledClient implements RpcClient {
  readonly #clients: RpcClient[];
  readonly #inFlight: number[];
  #next = 0;

  constructor(clients: RpcClient[]) {
    this.#clients = clients;
    this.#inFlight = clients.map(() => 0);
  }

  get stats(): RpcClient['stats'] {
    const clients = this.#clients;
    return {
      requests: clients.reduce((n, c) => n + c.stats.requests, 0),
      retries: clients.reduce((n, c) => n + c.stats.retries, 0),
      get reconnectTries() {
        return clients.reduce((n, c) => n + c.stats.reconnectTries, 0);
      },
    };
  }

  /** Requests each node answered (sent, retries included), in URL order. */
  get perNode(): number[] {
    return this.#clients.map((c) => c.stats.requests);
  }

  async send<T>(method: string, params: unknown[]): Promise<T> {
    // The least busy node; ties go round-robin so idle nodes share the first requests.
    let best = -1;
    for (let k = 0; k < this.#clients.length; k++) {
      const i = (this.#next + k) % this.#clients.length;
      if (best < 0 || this.#inFlight[i]! < this.#inFlight[best]!) best = i;
    }
    this.#next = (best + 1) % this.#clients.length;
    this.#inFlight[best]! += 1;
    try {
      return await this.#clients[best]!.send<T>(method, params);
    } finally {
      this.#inFlight[best]! -= 1;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
  }
}
