import type { RequestLogEntry } from './app.js';

/** Where log lines go: `process.stdout` by default, a file in the benchmark. */
export interface LogSink {
  write(chunk: string): unknown;
}

export interface RequestLog {
  /** Queues one JSON line; it is written at the end of the current event-loop turn. */
  log(entry: RequestLogEntry): void;
  /** Writes what is queued now (before the gateway closes). */
  flush(): void;
}

/**
 * One structured line per request, written once per event-loop turn: under load a turn answers tens
 * of requests, and a write per line cost the gateway about a tenth of its throughput (measured with
 * `make bench`). A crash loses at most the lines of the turn it happens in.
 */
export function requestLogTo(sink: LogSink): RequestLog {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    sink.write(chunk);
  };
  return {
    log(entry) {
      if (pending === '') setImmediate(flush);
      pending += `${JSON.stringify(entry)}\n`;
    },
    flush,
  };
}
