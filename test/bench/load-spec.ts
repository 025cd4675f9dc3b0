/** One round of load on one URL, and what came back; the load tools (`wrk-load.ts`, `autocannon-load.ts`) share it. */
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Load before measuring, not counted (for a client that must warm up itself; see each tool). */
  settleMs: number;
  /** Load that is measured. */
  durationMs: number;
  /** Every answer must be a 200 at least this long (headers included), or it counts as an error. */
  expectBytes: number;
}

export interface LoadResult {
  /** Answers in the measured window. */
  requests: number;
  /** Every answer, settling included: the server's work during the whole run. */
  answered: number;
  errors: number;
  seconds: number;
  /**
   * Latencies in milliseconds, in no particular order: one per counted answer, plus, from wrk, the
   * samples its coordinated-omission correction adds for slow answers (its own percentiles include them).
   */
  latenciesMs: number[];
  /** CPU the load generator itself used, in seconds, to tell a saturated client from a slow server. */
  clientCpuSeconds: number;
}
