/**
 * `sbm collect`: UTC days from the chain into the warehouse. Each day is written in one transaction
 * (delete, append, mark collected), so a day is either entirely there or not at all, running it twice
 * changes nothing, and a run killed midway is completed by the next one. The warehouse file is opened
 * only to write, so analysts and the emissions watch can use it between days.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { type DayBounds, DayLocator } from '../chain/day-bounds.js';
import { mapConcurrent } from '../chain/limiter.js';
import type { RpcClientOptions } from '../chain/rpc-client.js';
import { connectRpcPool } from '../chain/rpc-pool.js';
import { addDays, eachDay, formatUtcDay } from '../time/utc-day.js';
import {
  type ChainIdentity,
  readChainIdentity,
  recordGenesis,
  sameLastBlock,
} from '../warehouse/chain-identity.js';
import {
  describeInterrupted,
  finishRun,
  type InterruptedRun,
  type RunKind,
  startRun,
} from '../warehouse/collection-runs.js';
import type { DayRows } from '../warehouse/day-rows.js';
import { replaceDay } from '../warehouse/replace-day.js';
import { collectDay } from './collect-day.js';
import { DayBatches } from './day-batches.js';
import { type DayReport, type ProgressReporter, silentProgress } from './progress.js';
import { RunWarehouse } from './run-warehouse.js';

export interface CollectOptions {
  chainUrl: string;
  /**
   * Several nodes of the same chain sharing the reading (`--rpc` given more than once); `concurrency` requests
   * in flight on each. Absent or empty: `chainUrl` alone.
   */
  chainUrls?: string[];
  warehousePath: string;
  /** First UTC day (`YYYY-MM-DD`); default: the day after the last complete one, or the chain's first day. */
  from?: string;
  /** Last UTC day; default: the day of the finalized head (today, partial). */
  to?: string;
  /** Requests in flight against the node (default 16). */
  concurrency?: number;
  progress?: ProgressReporter;
  signal?: AbortSignal;
  clock?: () => Date;
  /** Retry and timeout settings of the RPC client. */
  rpc?: Omit<RpcClientOptions, 'url' | 'concurrency'>;
  /** The command, as `collection_runs.kind` records it (default `collect`). */
  kind?: RunKind;
  /** Lines for the operator as they happen, e.g. an earlier run found dead and marked interrupted. */
  notice?: (line: string) => void;
}

export interface CollectSummary {
  runId: string;
  /** Earlier runs found `running` with their process gone, marked `interrupted` by this one. */
  interrupted: InterruptedRun[];
  status: 'complete' | 'failed';
  error: string | null;
  from: string | null;
  to: string | null;
  fromBlock: number | null;
  toBlock: number | null;
  finalizedHead: number;
  days: DayReport[];
  blocks: number;
  burns: number;
  stakingEvents: number;
  seconds: number;
  blocksPerSecond: number;
  requests: number;
  retries: number;
}

/** The node is not the chain the warehouse holds: nothing is collected. */
export class ChainMismatchError extends Error {
  override name = 'ChainMismatchError';
}

export class CollectError extends Error {
  override name = 'CollectError';
  constructor(
    message: string,
    readonly summary: CollectSummary,
  ) {
    super(message);
  }
}

export async function collect(options: CollectOptions): Promise<CollectSummary> {
  const clock = options.clock ?? (() => new Date());
  const progress = options.progress ?? silentProgress;
  const concurrency = options.concurrency ?? 16;
  const started = clock().getTime();
  const urls = options.chainUrls && options.chainUrls.length > 0 ? options.chainUrls : [options.chainUrl];
  const rpc = await connectRpcPool(urls, { ...options.rpc, concurrency });
  // Blocks in flight: enough to keep every node's requests busy.
  const blocksInFlight = concurrency * new Set(urls).size;
  const reader = new ChainReader(rpc);
  // Where the days lie needs no warehouse: the head is read, and the days located when the first is given,
  // while the run is recorded. Nothing is written before the run is.
  const headRead = reader.finalizedHead();
  const locatorRead = headRead.then((head) => new DayLocator(reader, head));
  const planned =
    options.from === undefined
      ? null
      : locatorRead.then((locator) => planDays(locator, options.from!, options.to));
  for (const early of [headRead, locatorRead, planned]) early?.catch(() => undefined);
  const genesisRead = reader.blockHash(0);
  genesisRead.catch(() => undefined);
  // The run's opens of the warehouse: the schema applied at the first only (run-warehouse.ts).
  const warehouse = new RunWarehouse(options.warehousePath);
  // Refused when another collection is running on this warehouse; the socket must not keep us alive. The
  // chain the warehouse holds is read in the same open (and a new warehouse's genesis recorded), settled
  // here and judged below.
  const run = await warehouse
    .use(async (wh) => {
      const started = await startRun(wh, clock(), { kind: options.kind ?? 'collect' });
      const identity = await settle(async () => {
        const known = await readChainIdentity(wh, (await headRead).number);
        if (known.genesisHash === null && known.lastDay === null) {
          // Nothing collected yet: nothing to compare, the node's chain becomes the warehouse's.
          await recordGenesis(wh, await genesisRead, clock());
          return { ...known, genesisHash: await genesisRead };
        }
        return known;
      });
      return { ...started, identity };
    })
    .catch(async (error: unknown) => {
      await rpc.close();
      throw error;
    });
  const runId = run.runId;
  for (const interrupted of run.interrupted) options.notice?.(describeInterrupted(interrupted));
  const summary: CollectSummary = {
    runId,
    interrupted: run.interrupted,
    status: 'complete',
    error: null,
    from: null,
    to: null,
    fromBlock: null,
    toBlock: null,
    finalizedHead: 0,
    days: [],
    blocks: 0,
    burns: 0,
    stakingEvents: 0,
    seconds: 0,
    blocksPerSecond: 0,
    requests: 0,
    retries: 0,
  };
  // The days being written while the next are read (see below).
  let writing: DayBatches<{ rows: DayRows; bounds: DayBounds; started: number }> | null = null;
  let sameChain: Promise<void> = Promise.resolve();
  try {
    const head = await headRead;
    summary.finalizedHead = head.number;
    // Whether the node is the warehouse's chain is settled beside the first day's reads: nothing is written
    // before it is (every write waits for it), and reading is harmless.
    sameChain = ensureSameChain(reader, warehouse, urls.join(', '), clock(), run.identity, genesisRead);
    // Another chain's days are not read to the end: its reading stops when the check fails.
    const wrongChain = new AbortController();
    sameChain.catch(() => wrongChain.abort());
    const signal = options.signal ? AbortSignal.any([options.signal, wrongChain.signal]) : wrongChain.signal;
    const locator = await locatorRead;
    const { from, to, plan } = await (planned ??
      planDays(locator, await defaultFrom(warehouse, locator), options.to));
    summary.from = from;
    summary.to = to;
    progress.start(plan.reduce((n, b) => n + b.lastBlock - b.firstBlock + 1, 0));
    // Days are pipelined: days are written (one transaction each) while the next days' blocks are read, the
    // days read meanwhile in one open (day-batches.ts). Writes stay in day order and one at a time, so a run
    // killed midway leaves whole days up to some day, as before.
    writing = new DayBatches(
      warehouse,
      (wh, { rows }) => replaceDay(wh, rows, runId),
      ({ rows, bounds, started }) => {
        const report: DayReport = {
          day: bounds.day,
          firstBlock: bounds.firstBlock,
          lastBlock: bounds.lastBlock,
          burns: rows.burns.length,
          stakingEvents: rows.stakingEvents.length,
          partial: bounds.partial,
          seconds: (Date.now() - started) / 1000,
        };
        summary.days.push(report);
        summary.fromBlock ??= bounds.firstBlock;
        summary.toBlock = bounds.lastBlock;
        summary.blocks += bounds.lastBlock - bounds.firstBlock + 1;
        summary.burns += rows.burns.length;
        summary.stakingEvents += rows.stakingEvents.length;
        progress.dayDone(report);
      },
      { ready: sameChain },
    );
    for (const bounds of plan) {
      const started = Date.now();
      const rows = await collectDay(reader, bounds, {
        concurrency: blocksInFlight,
        onBlocks: (n) => progress.blocks(n),
        signal,
      });
      await writing.add({ rows, bounds, started });
    }
    await writing.finish();
  } catch (error) {
    summary.status = 'failed';
    // Reading another chain's days may fail in its own way before the check has answered; the check's
    // verdict is the one that explains it.
    const mismatch = await sameChain.then(
      () => null,
      (reason: unknown) => reason,
    );
    summary.error = errorText(mismatch ?? error);
  } finally {
    // The days read before the reading failed are written (or fail) first.
    await writing?.finish().catch(() => undefined);
    progress.finish();
    summary.requests = rpc.stats.requests;
    summary.retries = rpc.stats.retries;
    await rpc.close();
    summary.seconds = (clock().getTime() - started) / 1000;
    summary.blocksPerSecond = summary.seconds > 0 ? Math.round(summary.blocks / summary.seconds) : 0;
    await warehouse.use((wh) =>
      finishRun(wh, runId, {
        fromBlock: summary.fromBlock,
        toBlock: summary.toBlock,
        error: summary.error,
        now: clock(),
      }),
    );
  }
  if (summary.error !== null) throw new CollectError(`collection failed: ${summary.error}`, summary);
  return summary;
}

/**
 * Refuses a node of another chain before anything is written: the genesis hash the warehouse was first
 * collected from, and the last block of the latest day it holds, must be the node's (a node that lost or
 * replaced that block, or another network, or a sandbox started on another day, has other hashes). The first
 * collection records the genesis hash.
 */
async function ensureSameChain(
  reader: ChainReader,
  warehouse: RunWarehouse,
  url: string,
  now: Date,
  identity: Settled<ChainIdentity>,
  genesisRead: Promise<string>,
): Promise<void> {
  if (!identity.ok) throw identity.error;
  const known = identity.value;
  const genesis = await genesisRead;
  if (known.genesisHash !== null && known.genesisHash !== genesis) {
    throw new ChainMismatchError(
      `the warehouse ${warehouse.path} holds another chain's data (genesis ${known.genesisHash}); the node at ${url} has genesis ${genesis}: collect into a new warehouse (--warehouse, SBM_WAREHOUSE) or point at the node of the chain it holds`,
    );
  }
  // The latest collected day the node has a block for (a node still syncing is compared on what it has).
  if (known.lastDay !== null) {
    const last = known.lastDay;
    const { same, found } = await sameLastBlock(
      last,
      (block) => reader.blockHash(block),
      (block) => reader.timestampOf(block),
    );
    if (!same) {
      throw new ChainMismatchError(
        `the warehouse ${warehouse.path} holds another chain's data: block ${last.block}, the last of ${last.day}, is ${found} at ${url} (the node lost or replaced it, or is another chain): collect into a new warehouse, or from a node that has that block`,
      );
    }
  }
  if (known.genesisHash === null) await warehouse.use((wh) => recordGenesis(wh, genesis, now));
}

/** The blocks of each day from `from` to `to` (default: the head's day), days located a few at once. */
async function planDays(
  locator: DayLocator,
  from: string,
  to: string | undefined,
): Promise<{ from: string; to: string; plan: DayBounds[] }> {
  const last = to ?? (await locator.dayOf(locator.head.number));
  const located = await mapConcurrent(eachDay(from, last), 4, (day) => locator.bounds(day));
  return { from, to: last, plan: located.filter((bounds): bounds is DayBounds => bounds !== null) };
}

/** The day after the last complete day, or the chain's first day when nothing is collected yet. */
async function defaultFrom(warehouse: RunWarehouse, locator: DayLocator): Promise<string> {
  const last = await warehouse.use((wh) =>
    wh.rows(
      `SELECT strftime(max(day), '%Y-%m-%d') AS day FROM collected_days WHERE complete AND NOT partial`,
    ),
  );
  const day = last[0]?.['day'];
  if (typeof day === 'string') return addDays(day, 1);
  const genesis = await locator.timeOf(0);
  // A real genesis block has no timestamp (0): the chain's first day is then that of block 1.
  return formatUtcDay(genesis > 0 ? genesis : await locator.timeOf(1));
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The outcome of `work`, kept to be acted on later (a failure then, not now). */
async function settle<T>(work: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
