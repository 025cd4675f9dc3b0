/**
 * Alternating rounds against two servers (baseline, subject, baseline, subject, ...) so that a change
 * in machine load during the run hits both sides alike. Each round also records the CPU this process
 * (where both servers live) spent, for a per-request cost that does not depend on the client's speed.
 */

import { generateLoad } from './load-generator.js';
import type { LoadSpec } from './load-spec.js';
import { percentile } from './sample-stats.js';

export interface Side {
  name: string;
  url: string;
  headers: Record<string, string>;
}

export interface SideFigures {
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of the server process per answered request, in microseconds. */
  serverCpuUsPerRequest: number;
  clientCpuShare: number;
}

export interface RoundsOptions {
  connections: number;
  roundMs: number;
  rounds: number;
  warmupMs: number;
  /** Start of each round that is not measured, where the tool needs it (see `load-spec.ts`). */
  settleMs: number;
  expectBytes: number;
}

export async function alternate(sides: readonly Side[], options: RoundsOptions): Promise<SideFigures[]> {
  const spec = (side: Side, durationMs: number): LoadSpec => ({
    url: side.url,
    headers: side.headers,
    connections: options.connections,
    settleMs: options.settleMs,
    durationMs,
    expectBytes: options.expectBytes,
  });
  for (const side of sides) await generateLoad(spec(side, options.warmupMs));
  const totals = sides.map(() => ({
    requests: 0,
    answered: 0,
    errors: 0,
    seconds: 0,
    cpuUs: 0,
    clientCpu: 0,
    latencies: [] as number[],
  }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, side] of sides.entries()) {
      const cpuBefore = process.cpuUsage();
      const result = await generateLoad(spec(side, options.roundMs));
      const cpu = process.cpuUsage(cpuBefore);
      const total = totals[i]!;
      total.requests += result.requests;
      total.answered += result.answered;
      total.errors += result.errors;
      total.seconds += result.seconds;
      total.cpuUs += cpu.user + cpu.system;
      total.clientCpu += result.clientCpuSeconds;
      for (const latency of result.latenciesMs) total.latencies.push(latency);
    }
  }
  return totals.map((total) => ({
    requests: total.requests,
    errors: total.errors,
    requestsPerSecond: total.requests / total.seconds,
    p50Ms: percentile(total.latencies, 50),
    p99Ms: percentile(total.latencies, 99),
    // The server's CPU covers the whole run, settling included, so it is shared by every answer.
    serverCpuUsPerRequest: total.cpuUs / Math.max(1, total.answered),
    clientCpuShare: total.clientCpu / total.seconds,
  }));
}
