/**
 * The tax check's connection to a node: opened on the first check, then kept (the client reconnects by
 * itself after a drop). A check waits on a person, so it fails fast when the node is away: a few
 * seconds, not the collector's half-minute of retries, and then the caller answers 503 and the next
 * check tries again.
 */

import { ChainUnavailableError } from '../../chain/chain-errors.js';
import { ChainReader } from '../../chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../chain/rpc-client.js';
import { type ColdkeyHoldings, ColdkeyHoldingsReader } from './read-coldkey-holdings.js';

export interface ColdkeyChainOptions {
  url: string;
  /** The longest one read may take, connection included (default 6 s). */
  deadlineMs?: number;
}

export interface ColdkeyChain {
  /** The holdings of `address` at the finalized head; `ChainError` when the node cannot answer. */
  read(address: string): Promise<ColdkeyHoldings>;
  close(): Promise<void>;
}

const DEFAULT_DEADLINE_MS = 6_000;

export function createColdkeyChain(options: ColdkeyChainOptions): ColdkeyChain {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  let connection: Promise<{ rpc: RpcClient; holdings: ColdkeyHoldingsReader }> | null = null;
  let closed = false;

  const connect = () => {
    if (!connection) {
      const opening = connectRpc({
        url: options.url,
        concurrency: 64,
        connectTimeoutMs: Math.min(3_000, deadlineMs),
        reconnectTimeoutMs: Math.min(3_000, deadlineMs),
        requestTimeoutMs: Math.min(4_000, deadlineMs),
        maxAttempts: 2,
        baseDelayMs: 50,
        maxDelayMs: 200,
        // Between checks a down node is tried on a backoff up to every 30 s; the drop is logged once.
        reconnect: { baseDelayMs: 1_000, maxDelayMs: 30_000 },
      }).then((rpc) => ({ rpc, holdings: new ColdkeyHoldingsReader(new ChainReader(rpc)) }));
      // A failed connection is not kept: the next check connects again.
      opening.catch(() => {
        if (connection === opening) connection = null;
      });
      connection = opening;
    }
    return connection;
  };

  return {
    async read(address) {
      if (closed) throw new ChainUnavailableError('the chain connection is closed');
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ChainUnavailableError(`no answer from the node within ${deadlineMs} ms`)),
          deadlineMs,
        );
      });
      const open = connect();
      try {
        return await Promise.race([open.then(({ holdings }) => holdings.read(address)), deadline]);
      } catch (error) {
        // An unreachable or silent node: let go of the connection (and its reconnection loop, which
        // would log on and on); the next check opens a new one.
        if (error instanceof ChainUnavailableError && connection === open) {
          connection = null;
          open.then(({ rpc }) => rpc.close()).catch(() => undefined);
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      closed = true;
      const open = connection;
      connection = null;
      if (open) await open.then(({ rpc }) => rpc.close()).catch(() => undefined);
    },
  };
}
