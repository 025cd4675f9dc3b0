/**
 * One load run with wrk (C, Debian's package): one thread holding `connections` keep-alive
 * connections on loopback, each sending its next request as soon as the last answer arrived. Being
 * native, wrk needs a fraction of a core where autocannon, parsing every body in JavaScript, needs a
 * whole one on the 32 KB subnet list; so the server, not the client, sets the pace and the latencies.
 * wrk has no warm-up of its own, so `settleMs` is not used: every answer of the run is counted.
 *
 * Its Lua `done` hook prints the run's totals and the whole latency histogram (each distinct latency
 * in microseconds with its count), so the rounds of one side can be pooled into one p99. The histogram
 * is the one wrk's own percentiles come from, with the samples its coordinated-omission correction
 * adds, so the pooled p99 is if anything high. Its CPU comes from the shell's `times`, which reports
 * what the finished child used.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, LoadSpec } from './load-spec.js';

const REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK-SUMMARY %d %d %d %d\\n", summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.status + e.timeout))
  for i = 1, #latency do
    local value, count = latency(i)
    io.write(string.format("WRK-LATENCY %d %d\\n", value, count))
  end
end
`;

let script: string | undefined;

/** Whether `wrk` is on the PATH. */
export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const target = new URL(spec.url);
  if (target.hostname !== '127.0.0.1') throw new Error(`load goes to 127.0.0.1 only, not ${target.hostname}`);
  if (!script) {
    script = join(mkdtempSync(join(tmpdir(), 'sbm-wrk-')), 'report.lua');
    writeFileSync(script, REPORT);
  }
  const args = ['-t1', `-c${spec.connections}`, `-d${Math.max(1, Math.round(spec.durationMs / 1000))}s`];
  args.push('--timeout', '5s', '-s', script);
  for (const [name, value] of Object.entries(spec.headers)) args.push('-H', `${name}: ${value}`);
  args.push(spec.url);
  return new Promise((resolve, reject) => {
    // `times` prints the shell's own CPU, then its finished children's: wrk's.
    const shell = spawn('bash', ['-c', 'wrk "$@"; status=$?; times; exit $status', 'wrk', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    shell.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    shell.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    shell.on('error', reject);
    shell.on('close', (code) => {
      const text = Buffer.concat(out).toString();
      if (code !== 0) {
        reject(
          new Error(`wrk exited with ${code}: ${(Buffer.concat(err).toString() || text).slice(0, 500)}`),
        );
        return;
      }
      try {
        resolve(parseReport(text, spec.expectBytes));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseReport(text: string, expectBytes: number): LoadResult {
  const summary = /^WRK-SUMMARY (\d+) (\d+) (\d+) (\d+)$/m.exec(text);
  if (!summary) throw new Error(`wrk printed no summary: ${text.slice(0, 500)}`);
  const [requests, durationUs, bytes, errors] = summary.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const latenciesMs: number[] = [];
  for (const [, value, count] of text.matchAll(/^WRK-LATENCY (\d+) (\d+)$/gm)) {
    const ms = Number(value) / 1000;
    for (let i = 0; i < Number(count); i++) latenciesMs.push(ms);
  }
  // wrk counts non-2xx/3xx answers as errors; a short answer (not the expected bytes) shows in the
  // average size, which is all wrk reports without parsing every answer in Lua.
  const short = requests > 0 && bytes / requests < expectBytes ? requests : 0;
  return {
    requests,
    answered: requests,
    errors: errors + short,
    seconds: durationUs / 1e6,
    latenciesMs,
    clientCpuSeconds: childCpuSeconds(text),
  };
}

/** The second line of bash's `times`: children's user and system time, as `0m1.234s 0m0.567s`. */
function childCpuSeconds(text: string): number {
  const lines = [...text.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)];
  const children = lines[1];
  if (!children) return Number.NaN;
  const [, um, us, sm, ss] = children.map(Number) as [number, number, number, number, number];
  return um * 60 + us + sm * 60 + ss;
}
