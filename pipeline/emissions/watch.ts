/**
 * `sbm emissions watch`: a sample every interval until stopped. A sample that fails (node down, socket
 * dropped beyond the client's retries, database locked too long) is logged and skipped: it becomes a gap
 * in the published coverage, never an interpolation. After a failure the connection is dropped and a new
 * one is made for the next sample, so a restarted node is picked up again.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClient, type RpcClientOptions } from '../chain/rpc-client.js';
import { noteCopied, type SampleOptions, type SampleResult, takeSample } from './sample-once.js';

export interface WatchOptions extends SampleOptions {
  chainUrl: string;
  rpc?: Partial<RpcClientOptions>;
  /** Stops the loop (SIGINT/SIGTERM in the command). */
  signal?: AbortSignal;
  /** Waits between samples; injectable so tests drive a fake clock. Resolves early when aborted. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onSample?: (result: SampleResult) => void;
  onError?: (error: unknown) => void;
  /** Stop after this many attempts (tests); default: until aborted. */
  maxAttempts?: number;
}

export interface WatchSummary {
  attempts: number;
  sampled: number;
  unchanged: number;
  failed: number;
}

export async function watch(options: WatchOptions): Promise<WatchSummary> {
  const clock = options.now ?? (() => new Date());
  const sleep = options.sleep ?? abortableSleep;
  const summary: WatchSummary = { attempts: 0, sampled: 0, unchanged: 0, failed: 0 };
  let client: RpcClient | null = null;
  let reader: ChainReader | null = null;
  // Each sample notes the previous one's copies in its own transaction: one hold of the file a sample.
  const sampleOptions: SampleOptions = { ...options, copiedUnnoted: [] };
  try {
    while (!options.signal?.aborted) {
      const dueNext = clock().getTime() + options.intervalMs;
      summary.attempts += 1;
      try {
        if (!reader) {
          client = await connectRpc({
            ...options.rpc,
            url: options.chainUrl,
            concurrency: options.concurrency,
          });
          reader = new ChainReader(client);
        }
        const result = await takeSample(reader, sampleOptions);
        summary[result.status] += 1;
        options.onSample?.(result);
      } catch (error) {
        summary.failed += 1;
        options.onError?.(error);
        await client?.close();
        client = null;
        reader = null;
      }
      if (options.maxAttempts !== undefined && summary.attempts >= options.maxAttempts) break;
      if (options.signal?.aborted) break;
      // Samples keep their cadence: the wait is what is left of the interval after this sample.
      await sleep(Math.max(0, dueNext - clock().getTime()), options.signal);
    }
  } finally {
    await client?.close();
    // The last copies are noted before the watch ends (if this fails, the next run copies them again).
    const unnoted = sampleOptions.copiedUnnoted ?? [];
    if (unnoted.length > 0)
      await noteCopied(sampleOptions, unnoted, clock().getTime()).catch(() => undefined);
  }
  return summary;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
