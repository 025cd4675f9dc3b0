/**
 * Collection progress. On a terminal: one bar redrawn in place with blocks per second and time left.
 * Elsewhere (CI, cron, a pipe): one line per finished day, so logs stay readable.
 */
export interface DayReport {
  day: string;
  firstBlock: number;
  lastBlock: number;
  burns: number;
  stakingEvents: number;
  partial: boolean;
  seconds: number;
}

export interface ProgressReporter {
  start(totalBlocks: number): void;
  blocks(count: number): void;
  dayDone(report: DayReport): void;
  finish(): void;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export const silentProgress: ProgressReporter = {
  start() {},
  blocks() {},
  dayDone() {},
  finish() {},
};

export function progressFor(stream: ProgressStream, now: () => number = Date.now): ProgressReporter {
  return stream.isTTY ? new BarProgress(stream, now) : new LineProgress(stream, now);
}

class LineProgress implements ProgressReporter {
  #total = 0;
  #done = 0;
  #started = 0;

  constructor(
    readonly stream: ProgressStream,
    readonly now: () => number,
  ) {}
  start(totalBlocks: number) {
    this.#total = totalBlocks;
    this.#started = this.now();
  }
  blocks(count: number) {
    this.#done += count;
  }
  dayDone(r: DayReport) {
    const rate = r.seconds > 0 ? Math.round((r.lastBlock - r.firstBlock + 1) / r.seconds) : 0;
    // The whole run's rate gives the time left (a backfill of many days reads it from each line).
    const elapsed = (this.now() - this.#started) / 1000;
    const overall = elapsed > 0 ? this.#done / elapsed : 0;
    const left = overall > 0 ? formatSeconds((this.#total - this.#done) / overall) : '?';
    this.stream.write(
      `collected ${r.day}${r.partial ? ' (partial)' : ''}: blocks ${r.firstBlock}-${r.lastBlock}, ` +
        `${r.burns} burns, ${r.stakingEvents} staking events, ${r.seconds.toFixed(1)} s, ${rate} blocks/s; ` +
        `${this.#done}/${this.#total} blocks, ${Math.round(overall)} blocks/s, ${left} left\n`,
    );
  }
  finish() {}
}

class BarProgress implements ProgressReporter {
  #total = 0;
  #done = 0;
  #started = 0;
  #lastDraw = 0;

  constructor(
    readonly stream: ProgressStream,
    readonly now: () => number,
  ) {}

  start(totalBlocks: number) {
    this.#total = totalBlocks;
    this.#started = this.now();
    this.#draw(true);
  }

  blocks(count: number) {
    this.#done += count;
    this.#draw(false);
  }

  dayDone(r: DayReport) {
    this.stream.write(`\r\x1b[2Kcollected ${r.day}${r.partial ? ' (partial)' : ''}: ${r.burns} burns\n`);
    this.#draw(true);
  }

  finish() {
    this.#draw(true);
    this.stream.write('\n');
  }

  #draw(force: boolean) {
    const t = this.now();
    if (!force && t - this.#lastDraw < 100) return;
    this.#lastDraw = t;
    const elapsed = Math.max(0.001, (t - this.#started) / 1000);
    const rate = this.#done / elapsed;
    const fraction = this.#total > 0 ? Math.min(1, this.#done / this.#total) : 0;
    const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - 50));
    const filled = Math.round(fraction * width);
    const left = rate > 0 ? (this.#total - this.#done) / rate : Number.NaN;
    this.stream.write(
      `\r\x1b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.#done}/${this.#total} blocks ` +
        `${Math.round(rate)}/s ${Number.isFinite(left) ? `${formatSeconds(left)} left` : ''}`,
    );
  }
}

function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 86_400)
    return `${Math.floor(s / 86_400)}d${String(Math.floor((s % 86_400) / 3600)).padStart(2, '0')}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
