/**
 * The pack builder's connection to an archive node (`SBM_CHAIN_URL`, the node the gateway's tax check
 * reads): opened on the first pack that needs it and kept for the rest of the fulfilment run. Unlike the
 * check, nobody waits on a pack: it retries like the collector (about 30 s of backoff per request) before
 * the build fails and the fulfilment job's own backoff takes over.
 */
import { ChainReader } from '../../../chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../../../chain/rpc-client.js';

export interface PackChain {
  reader(): Promise<ChainReader>;
  close(): Promise<void>;
}

export function openPackChain(url: string, concurrency = 32): PackChain {
  let connection: Promise<RpcClient> | null = null;
  return {
    reader() {
      if (!connection) {
        const opening = connectRpc({ url, concurrency });
        // A failed connection is not kept: the next pack connects again.
        opening.catch(() => {
          if (connection === opening) connection = null;
        });
        connection = opening;
      }
      return connection.then((rpc) => new ChainReader(rpc));
    },
    async close() {
      const open = connection;
      connection = null;
      if (open) await open.then((rpc) => rpc.close()).catch(() => undefined);
    },
  };
}
