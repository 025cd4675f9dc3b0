import { BlockHashes } from './chain/blocks.js';
import { ChainStorage } from './chain/storage.js';
import { type DevnetOptions, resolveWorldParams } from './options.js';
import { PriceServer } from './price/price-server.js';
import { ChainNode } from './rpc/chain-node.js';
import { FaultInjector, type Faults } from './rpc/faults.js';
import { JsonRpcWsServer } from './rpc/ws-server.js';
import { loadRuntimes, type Runtimes } from './runtime/runtimes.js';
import { World } from './world/world.js';

export interface RunningDevnet {
  /** `ws://HOST:PORT` of the JSON-RPC server. */
  url: string;
  /** `http://HOST:PORT/api/v3` of the CoinGecko-style price API. */
  priceUrl: string;
  /** SS58 address of the demo coldkey (rich staking history). */
  demoColdkey: string;
  /** From spec 425 on: the coldkey the demo coldkey swaps to (its positions move there). */
  successorColdkey: string | null;
  /**
   * The coldkey holding the demo's stake when the sandbox started: the demo coldkey, or its successor once the
   * coldkey swap is in the past (with today's chain, always). What `sbm devnet` prints as `coldkey:`.
   */
  holderColdkey: string;
  world: World;
  /** Current best block. */
  head(): number;
  /** Block hash of any produced block. */
  blockHash(block: number): string;
  /**
   * JSON-RPC requests the node has received since it started (every connection, batches counted per
   * request): of `method`, or of every method when none is named.
   */
  requests(method?: string): number;
  setFaults(faults: Partial<Faults>): void;
  /**
   * Suspends `netuid`'s emission for exactly one block (the emissions watch's flap case). Inject for blocks
   * no client has read yet: clients cache answers per block hash, since history never changes.
   */
  injectEmissionFlap(netuid: number, block: number): void;
  stop(): Promise<void>;
}

/** Starts the sandbox chain and its price API; resolves once both listen. */
export async function startDevnet(options: DevnetOptions): Promise<RunningDevnet> {
  const now = options.now ?? Date.now;
  const world = new World(resolveWorldParams(options, now()));
  const runtimes = loadRuntimes();
  const hashes = BlockHashes.forWorld(world.params);
  const storage = new ChainStorage(world, runtimes, hashes);
  const node = new ChainNode(world, runtimes, hashes, storage, now, options.finalityLag);
  // Compute the staking history up to the head now rather than on the first query.
  world.stakers.stateAt(node.head());
  prepareRuntimes(world, runtimes, node.head());
  const faults = new FaultInjector(options.seed, {
    latencyMs: options.latencyMs,
    failRate: options.failRate,
    dropEvery: options.dropEvery,
  });
  const rpc = new JsonRpcWsServer(node, faults);
  const port = await rpc.listen(options.host, options.port);
  const prices = new PriceServer(options.seed, now);
  let pricePort: number;
  try {
    pricePort = await prices.listen(options.host, options.pricePort ?? (options.port === 0 ? 0 : port + 1));
  } catch (error) {
    await rpc.close();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: `ws://${options.host}:${port}`,
    priceUrl: `http://${options.host}:${pricePort}/api/v3`,
    demoColdkey: world.stakers.demo.coldkey.address,
    successorColdkey: world.stakers.successor?.coldkey.address ?? null,
    holderColdkey: world.stakers.holderAt(node.head()).coldkey.address,
    world,
    head: () => node.head(),
    blockHash: (block) => hashes.hashOf(block),
    requests: (method) => rpc.requests(method),
    setFaults: (changes) => faults.set(changes),
    injectEmissionFlap: (netuid, block) => {
      world.injectEmissionFlap(netuid, block);
      storage.clearCache();
    },
    stop: () => {
      stopped ??= Promise.all([rpc.close(), prices.close()]).then(() => undefined);
      return stopped;
    },
  };
}

/**
 * Builds before listening (about a second each) the runtimes of 343 and 393, the head's, and the next
 * upgrade's, so that a live upgrade is announced at once and the common answers are not slowed by a first
 * build; any other runtime of the history is built on first use.
 */
function prepareRuntimes(world: World, runtimes: Runtimes, head: number): void {
  const schedule = world.params.runtimeSchedule;
  const specs = new Set([343, 393, world.specAt(head)]);
  const next = schedule.find((step) => step.fromBlock > head);
  if (next) specs.add(next.spec);
  for (const spec of specs) if (schedule.some((step) => step.spec === spec)) runtimes.bySpec(spec);
}
