import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';

/** One scheduled order command, as the shipped cron runs it (deploy/cron/sbm). */
export interface OrderJob {
  /** The gateway command's arguments, e.g. `['orders', 'fulfil']`. */
  args: string[];
  /** Runs at every multiple of this many milliseconds of the UTC clock, as cron's `*` and `*\/15` do. */
  everyMs: number;
}

/** The shipped cron's order jobs: `orders fulfil` every minute, `orders reconcile` every 15 minutes. */
export const CRON_ORDER_JOBS: readonly OrderJob[] = [
  { args: ['orders', 'fulfil'], everyMs: 60_000 },
  { args: ['orders', 'reconcile'], everyMs: 15 * 60_000 },
];

export interface OrderJobs {
  /** Runs finished so far, by command (`orders fulfil`: 3), for the demo's tests. */
  runs(): Record<string, number>;
  /** The process ids of the runs under way. */
  pids(): number[];
  /** Clears the schedule and stops a run under way (SIGTERM, then SIGKILL after 5 s); resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * The demo's cron: each job's command run as its own process (`node --import tsx gateway/cli.ts …`) on
 * the shipped cron's schedule, so a buyer in the demo sees their pack arrive as a real buyer would. As
 * cron's `flock -n`, a run still going when its next time comes is not started twice: that time is
 * skipped. Each run's output is appended to `logFile`; the lines that say an order changed (`fulfilled`,
 * `emailed`, `paid`, `remade-and-paid`, …) are passed to `say` as well, so the demo's terminal shows the
 * pack arriving. A failed run (a build that failed, a session that needs an operator) is logged and the
 * schedule goes on, as cron's does.
 */
export function startOrderJobs(options: {
  jobs: readonly OrderJob[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  say: (line: string) => void;
  now?: () => number;
}): OrderJobs {
  const now = options.now ?? Date.now;
  const running = new Map<string, ChildProcess>();
  const finished: Record<string, number> = {};
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;

  const log = (text: string) => appendFile(options.logFile, text).catch(() => {});

  const run = (job: OrderJob) => {
    const name = job.args.join(' ');
    if (stopped || running.has(name)) return;
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/cli.ts', ...job.args], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.set(name, child);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      running.delete(name);
      finished[name] = (finished[name] ?? 0) + 1;
      const stamp = new Date(now()).toISOString();
      void log(`${stamp} ${name} (exit ${code ?? signal})\n${out}`);
      for (const line of out.split('\n')) {
        if (CHANGED.test(line)) options.say(`[${name}] ${line}`);
      }
      if (code !== 0 && !stopped) options.say(`[${name}] exited ${code ?? signal}: see ${options.logFile}`);
    });
  };

  const schedule = (job: OrderJob) => {
    if (stopped) return;
    const wait = job.everyMs - (now() % job.everyMs);
    const timer = setTimeout(() => {
      timers.delete(timer);
      run(job);
      schedule(job);
    }, wait);
    timers.add(timer);
  };
  for (const job of options.jobs) schedule(job);

  return {
    runs: () => ({ ...finished }),
    pids: () => [...running.values()].flatMap((child) => (child.pid ? [child.pid] : [])),
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all([...running.values()].map(stopProcess));
    },
  };
}

/** The report lines that say an order or a payment changed (orders fulfil's and orders reconcile's). */
const CHANGED =
  /^(fulfilled|emailed|built|rejected|failed|paid|remade-and-paid|refused|unknown-order|amount-mismatch) /;

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
