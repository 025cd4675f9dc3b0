import type { RequestLogEntry } from './app.js';

/** Where log lines go: `process.stdout` by default, a file in the benchmark. */
export interface LogSink {
  write(chunk: string): unknown;
}

export interface RequestLog {
  /** Queues one JSON line; it is written within `REQUEST_LOG_WRITE_MS` (sooner when much is queued). */
  log(entry: RequestLogEntry): void;
  /** Writes what is queued now (before the gateway closes). */
  flush(): void;
}

/** How long a line may wait to be written with the ones after it. */
export const REQUEST_LOG_WRITE_MS = 10;
/** Queued text that is written at once, without waiting. */
const WRITE_AT_CHARS = 64 * 1024;

/**
 * One structured line per request, written in batches: a write per line cost the gateway about a
 * tenth of its throughput, and a write per event-loop turn (a few requests each) still 4% of its CPU
 * on the public subnet list (measured with `node --cpu-prof` under the bench's load, 2026-11-25), so
 * lines wait up to 10 ms for the ones after them. A crash loses at most those 10 ms of lines.
 */
export function requestLogTo(sink: LogSink): RequestLog {
  // Lines kept apart and joined once per write: a string grown by `+=` is a rope of every line, and
  // turning that into bytes cost more than building the lines (profiled 2026-11-25).
  let pending: string[] = [];
  let pendingChars = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    pendingChars = 0;
    sink.write(lines.join(''));
  };
  return {
    log(entry) {
      if (timer === null) timer = setTimeout(flush, REQUEST_LOG_WRITE_MS);
      const line = logLine(entry);
      pending.push(line);
      pendingChars += line.length;
      if (pendingChars >= WRITE_AT_CHARS) flush();
    },
    flush,
  };
}

/**
 * The entry as a JSON line, the same text `JSON.stringify` makes, built by hand: its strings are a
 * route pattern, an HTTP method and an account id, which need no escaping (anything else is quoted
 * by `JSON.stringify`), and serialising a whole object per request showed in the profile.
 */
export function logLine(entry: RequestLogEntry): string {
  return (
    `${linePrefix(entry.method, entry.route)}${entry.status},"duration_ms":${decimal(entry.duration_ms)},` +
    `"account":${entry.account === null ? 'null' : quoted(entry.account)}}\n`
  );
}

/** `{"method":…,"route":…,"status":`, made once per method and route. */
function linePrefix(method: string, route: string): string {
  const byRoute = prefixes.get(method) ?? new Map<string, string>();
  let prefix = byRoute.get(route);
  if (prefix === undefined) {
    prefix = `{"method":${quoted(method)},"route":${quoted(route)},"status":`;
    if (byRoute.size >= MAX_QUOTED) byRoute.clear();
    byRoute.set(route, prefix);
    prefixes.set(method, byRoute);
  }
  return prefix;
}

const prefixes = new Map<string, Map<string, string>>();

/**
 * A number as `JSON.stringify` writes it. A duration in hundredths of a millisecond (what the app
 * logs) is written from integers: turning a fraction into its shortest decimal costs more than the
 * rest of the line. Anything else goes through `String`.
 */
function decimal(value: number): string {
  const hundredths = Math.round(value * 100);
  if (hundredths / 100 !== value || hundredths < 0 || hundredths > 1e15) {
    return Number.isFinite(value) ? String(value) : 'null';
  }
  const fraction = hundredths % 100;
  const whole = (hundredths - fraction) / 100;
  if (fraction === 0) return `${whole}`;
  if (fraction % 10 === 0) return `${whole}.${fraction / 10}`;
  return `${whole}.${fraction < 10 ? '0' : ''}${fraction}`;
}

const PLAIN = /^[A-Za-z0-9_\-./:{}]*$/;

/** Each text quoted once: a log line's strings are a few route patterns, methods and account ids. */
const QUOTED = new Map<string, string>();
const MAX_QUOTED = 1_024;

function quoted(text: string): string {
  let json = QUOTED.get(text);
  if (json === undefined) {
    json = PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
    if (QUOTED.size >= MAX_QUOTED) QUOTED.clear();
    QUOTED.set(text, json);
  }
  return json;
}
