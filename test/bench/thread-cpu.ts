/**
 * Each thread's time on a CPU and time waiting for one, from Linux's scheduler statistics
 * (`/proc/<pid>/task/<tid>/schedstat`: nanoseconds run, nanoseconds runnable but waiting). A profile shows
 * what the JavaScript thread did; this shows the threads it does not (V8's compiler and collector threads,
 * libuv's pool, a worker) and which of them waited for a core.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface ThreadTime {
  runS: number;
  waitS: number;
}

/** Every thread of `pid` by thread id (empty where there is no /proc: not Linux). */
export function threadTimes(pid: number): Map<number, ThreadTime> {
  const times = new Map<number, ThreadTime>();
  const dir = `/proc/${pid}/task`;
  if (!existsSync(dir)) return times;
  for (const tid of readdirSync(dir)) {
    try {
      const [run, wait] = readFileSync(`${dir}/${tid}/schedstat`, 'utf8').split(' ');
      times.set(Number(tid), { runS: Number(run) / 1e9, waitS: Number(wait) / 1e9 });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** What each thread ran and waited between two readings (threads started meanwhile from zero). */
export function threadTimesSince(
  before: ReadonlyMap<number, ThreadTime>,
  after: ReadonlyMap<number, ThreadTime>,
): Map<number, ThreadTime> {
  const spent = new Map<number, ThreadTime>();
  for (const [tid, now] of after) {
    const then = before.get(tid) ?? { runS: 0, waitS: 0 };
    spent.set(tid, { runS: now.runS - then.runS, waitS: now.waitS - then.waitS });
  }
  return spent;
}

/** `main 5.54 s run / 1.83 s waiting; others 4.20 / 5.10 (the busiest: tid 9506 0.86 / 1.46, …)`. */
export function describeThreadTimes(pid: number, spent: ReadonlyMap<number, ThreadTime>): string {
  const main = spent.get(pid) ?? { runS: 0, waitS: 0 };
  const others = [...spent].filter(([tid, t]) => tid !== pid && t.runS + t.waitS >= 0.05);
  others.sort((a, b) => b[1].runS - a[1].runS);
  const sum = others.reduce((s, [, t]) => ({ runS: s.runS + t.runS, waitS: s.waitS + t.waitS }), {
    runS: 0,
    waitS: 0,
  });
  const pair = (t: ThreadTime) => `${t.runS.toFixed(2)} / ${t.waitS.toFixed(2)}`;
  return (
    `main ${pair(main)}; ${others.length} other threads ${pair(sum)}` +
    (others.length > 0 ? ` (${others.map(([tid, t]) => `${tid} ${pair(t)}`).join(', ')})` : '')
  );
}
