/**
 * The process behind a collection run, as `collection_runs` records it, and whether it is still there.
 * A pid alone is not enough: pids are reused (a container's pid 1 after a restart, a busy host after a
 * while), so on Linux the process's start time (clock ticks after boot, field 22 of /proc/<pid>/stat)
 * is recorded too, and a live pid with another start time is a different process.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface RunProcess {
  pid: number;
  host: string;
  /** Clock ticks after boot at which the process started; null where /proc cannot be read. */
  startTicks: bigint | null;
}

/** What a run row recorded; every field is null in rows written before processes were recorded. */
export interface RecordedProcess {
  pid: number | null;
  host: string | null;
  startTicks: bigint | null;
}

export type Liveness = { alive: true } | { alive: false; why: string };

export function currentProcess(): RunProcess {
  return processOf(process.pid);
}

/** Process `pid` on this host, as a run would record it. */
export function processOf(pid: number): RunProcess {
  return { pid, host: hostname(), startTicks: startTicksOf(pid) };
}

/**
 * Whether the recorded process still runs. A row from another host counts as gone: the warehouse is a
 * local DuckDB file (DuckDB's own lock does not work across hosts either), so a row naming another host
 * means the file was copied or moved while a run was going, and that process does not write this file.
 */
export function livenessOf(recorded: RecordedProcess, here: RunProcess = currentProcess()): Liveness {
  if (recorded.pid === null) return { alive: false, why: 'no process was recorded (an older sbm)' };
  const where = `pid ${recorded.pid} on ${recorded.host ?? 'an unknown host'}`;
  if (recorded.host !== here.host)
    return { alive: false, why: `${where} is not on this host (${here.host})` };
  if (!pidExists(recorded.pid)) return { alive: false, why: `${where} has exited` };
  if (recorded.startTicks !== null) {
    const now = startTicksOf(recorded.pid);
    if (now !== null && now !== recorded.startTicks) {
      return { alive: false, why: `${where} has exited (the pid now belongs to another process)` };
    }
  }
  return { alive: true };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function startTicksOf(pid: number): bigint | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count from the last ')'.
  // Fields after it start at field 3; starttime is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? BigInt(ticks) : null;
}
