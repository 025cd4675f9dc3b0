import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { ChainNode } from './chain-node.js';
import type { FaultInjector } from './faults.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, RpcError } from './rpc-error.js';

type Json = unknown;

interface Subscription {
  kind: 'newHead' | 'allHead' | 'finalizedHead' | 'runtimeVersion' | 'storage';
  /** Notification method name. */
  method: string;
  keys: string[];
  lastValues: Map<string, string | null>;
  lastSpec: number;
}

interface Connection {
  socket: WebSocket;
  requests: number;
  subscriptions: Map<string, Subscription>;
  closing: boolean;
}

const SUBSCRIBE: Record<string, { kind: Subscription['kind']; method: string }> = {
  chain_subscribeNewHeads: { kind: 'newHead', method: 'chain_newHead' },
  chain_subscribeNewHead: { kind: 'newHead', method: 'chain_newHead' },
  subscribe_newHead: { kind: 'newHead', method: 'chain_newHead' },
  chain_subscribeAllHeads: { kind: 'allHead', method: 'chain_allHead' },
  chain_subscribeFinalizedHeads: { kind: 'finalizedHead', method: 'chain_finalizedHead' },
  chain_subscribeFinalisedHeads: { kind: 'finalizedHead', method: 'chain_finalizedHead' },
  state_subscribeRuntimeVersion: { kind: 'runtimeVersion', method: 'state_runtimeVersion' },
  state_subscribeStorage: { kind: 'storage', method: 'state_storage' },
};

/** The subscribe methods the server answers itself, as its table holds them (read-only). */
export const SUBSCRIBE_METHODS: readonly string[] = Object.freeze(Object.keys(SUBSCRIBE));

/**
 * JSON-RPC 2.0 over WebSocket: parses frames (single and batch), applies faults, answers through the
 * chain node, and runs subscriptions that emit as the head moves with the clock.
 */
export class JsonRpcWsServer {
  readonly #node: ChainNode;
  readonly #faults: FaultInjector;
  readonly #connections = new Set<Connection>();
  #server: WebSocketServer | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #lastHead = -1;
  #lastFinalized = -1;
  #nextId = 1;
  /** JSON-RPC requests answered since start, by method (tests count what a client sent). */
  readonly #requestCounts = new Map<string, number>();

  constructor(node: ChainNode, faults: FaultInjector) {
    this.#node = node;
    this.#faults = faults;
  }

  async listen(host: string, port: number): Promise<number> {
    const server = new WebSocketServer({ host, port });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    server.on('error', () => {});
    server.on('connection', (socket) => this.#accept(socket));
    this.#lastHead = this.#node.head();
    this.#lastFinalized = this.#node.finalized();
    this.#ticker = setInterval(() => this.#tick(), 100);
    return (server.address() as AddressInfo).port;
  }

  /** Requests received since start: of one method, or of all methods when none is named. */
  requests(method?: string): number {
    if (method !== undefined) return this.#requestCounts.get(method) ?? 0;
    let total = 0;
    for (const count of this.#requestCounts.values()) total += count;
    return total;
  }

  async close(): Promise<void> {
    if (this.#ticker) clearInterval(this.#ticker);
    for (const connection of this.#connections) connection.socket.terminate();
    this.#connections.clear();
    const server = this.#server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: WebSocket): void {
    const connection: Connection = { socket, requests: 0, subscriptions: new Map(), closing: false };
    this.#connections.add(connection);
    socket.on('error', () => {});
    socket.on('close', () => this.#connections.delete(connection));
    socket.on('message', (data, isBinary) => {
      this.#onFrame(connection, isBinary ? '' : data.toString());
    });
  }

  #onFrame(connection: Connection, text: string): void {
    let message: Json;
    try {
      message = JSON.parse(text);
    } catch {
      this.#send(connection, {
        jsonrpc: '2.0',
        id: null,
        error: { code: PARSE_ERROR, message: 'Parse error' },
      });
      return;
    }
    if (Array.isArray(message)) {
      if (message.length === 0) {
        this.#send(connection, {
          jsonrpc: '2.0',
          id: null,
          error: { code: INVALID_REQUEST, message: 'Invalid request' },
        });
        return;
      }
      const answers = message.map((item) => this.#answer(connection, item)).filter((a) => a !== undefined);
      this.#reply(
        connection,
        answers.map((a) => a.response),
        answers.flatMap((a) => a.after),
      );
      return;
    }
    const answer = this.#answer(connection, message);
    if (answer !== undefined) this.#reply(connection, answer.response, answer.after);
  }

  /** Answers one request; `after` runs once the answer is sent (a subscription's first notification). */
  #answer(connection: Connection, request: Json): { response: Json; after: Array<() => void> } | undefined {
    const r = request as { id?: unknown; method?: unknown; params?: unknown; jsonrpc?: unknown };
    if (typeof r !== 'object' || r === null || typeof r.method !== 'string') {
      return {
        response: {
          jsonrpc: '2.0',
          id: r?.id ?? null,
          error: { code: INVALID_REQUEST, message: 'Invalid request' },
        },
        after: [],
      };
    }
    const id = r.id ?? null;
    const method = r.method;
    const params = Array.isArray(r.params) ? r.params : r.params === undefined ? [] : null;
    connection.requests += 1;
    this.#requestCounts.set(method, (this.#requestCounts.get(method) ?? 0) + 1);
    const after: Array<() => void> = [];
    if (this.#faults.faults.dropEvery > 0 && connection.requests % this.#faults.faults.dropEvery === 0) {
      after.push(() => this.#drop(connection));
    }
    try {
      if (params === null) throw new RpcError(INVALID_PARAMS, 'Invalid params: expected an array');
      if (this.#faults.shouldFail(method, params)) {
        throw new RpcError(INTERNAL_ERROR, 'Internal error (injected by the sandbox: --fail-rate)');
      }
      const result = this.#dispatch(connection, method, params, after);
      return { response: { jsonrpc: '2.0', id, result }, after };
    } catch (error) {
      const rpc =
        error instanceof RpcError
          ? error
          : new RpcError(
              INTERNAL_ERROR,
              `Internal error: ${error instanceof Error ? error.message : String(error)}`,
            );
      return { response: { jsonrpc: '2.0', id, error: { code: rpc.code, message: rpc.message } }, after };
    }
  }

  #dispatch(connection: Connection, method: string, params: unknown[], after: Array<() => void>): Json {
    const subscribe = SUBSCRIBE[method];
    if (subscribe) {
      const keys = subscribe.kind === 'storage' ? params[0] : [];
      if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) {
        throw new RpcError(INVALID_PARAMS, 'Invalid params: storage subscriptions need a list of keys');
      }
      const id = `sbx${this.#nextId++}`;
      const subscription: Subscription = {
        ...subscribe,
        keys: keys as string[],
        lastValues: new Map(),
        lastSpec: -1,
      };
      connection.subscriptions.set(id, subscription);
      after.push(() => this.#notify(connection, id, subscription, this.#node.head(), this.#node.finalized()));
      return id;
    }
    if (method.includes('_unsubscribe') || method.startsWith('unsubscribe_')) {
      return connection.subscriptions.delete(String(params[0]));
    }
    return this.#node.call(method, params);
  }

  #reply(connection: Connection, response: Json, after: Array<() => void>): void {
    const send = () => {
      this.#send(connection, response);
      for (const run of after) run();
    };
    const latency = this.#faults.faults.latencyMs;
    if (latency > 0) setTimeout(send, latency);
    else send();
  }

  #send(connection: Connection, message: Json): void {
    if (connection.closing || connection.socket.readyState !== connection.socket.OPEN) return;
    connection.socket.send(JSON.stringify(message));
  }

  #drop(connection: Connection): void {
    connection.closing = true;
    connection.socket.close(1012, 'sandbox: --drop-every');
  }

  #tick(): void {
    const head = this.#node.head();
    const finalized = this.#node.finalized();
    if (head === this.#lastHead && finalized === this.#lastFinalized) return;
    for (const connection of this.#connections) {
      for (const [id, subscription] of connection.subscriptions) {
        this.#notify(connection, id, subscription, head, finalized);
      }
    }
    this.#lastHead = head;
    this.#lastFinalized = finalized;
  }

  #notify(
    connection: Connection,
    id: string,
    subscription: Subscription,
    head: number,
    finalized: number,
  ): void {
    const emit = (result: Json) =>
      this.#send(connection, {
        jsonrpc: '2.0',
        method: subscription.method,
        params: { subscription: id, result },
      });
    try {
      switch (subscription.kind) {
        case 'newHead':
        case 'allHead': {
          const from = subscription.lastSpec < 0 ? head : Math.max(this.#lastHead + 1, head - 9);
          for (let block = from; block <= head; block++) emit(this.#node.header(block));
          subscription.lastSpec = 0;
          break;
        }
        case 'finalizedHead': {
          const from =
            subscription.lastSpec < 0 ? finalized : Math.max(this.#lastFinalized + 1, finalized - 9);
          for (let block = from; block <= finalized; block++) emit(this.#node.header(block));
          subscription.lastSpec = 0;
          break;
        }
        case 'runtimeVersion': {
          const runtime = this.#node.codeAt(head);
          if (runtime.specVersion !== subscription.lastSpec) {
            subscription.lastSpec = runtime.specVersion;
            emit(runtime.versionJson);
          }
          break;
        }
        case 'storage': {
          const changes: Array<[string, string | null]> = [];
          for (const key of subscription.keys) {
            const value = this.#node.storageAt(key, head);
            if (!subscription.lastValues.has(key) || subscription.lastValues.get(key) !== value) {
              subscription.lastValues.set(key, value);
              changes.push([key, value]);
            }
          }
          if (changes.length > 0 || subscription.lastSpec < 0) {
            subscription.lastSpec = 0;
            emit({ block: this.#node.hashes.hashOf(head), changes });
          }
          break;
        }
      }
    } catch {
      // A failing notification must not stop the others; the client sees the next one.
    }
  }
}
