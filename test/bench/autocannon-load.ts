/**
 * One load run with autocannon: `connections` keep-alive connections on loopback, each sending its
 * next request as soon as the last answer arrived, for `settleMs + durationMs`. Only answers after the
 * first `settleMs` count: the load generator is a fresh process whose own code is still being compiled
 * while its connections open, and those first answers measure the client, not the server. Every
 * counted answer's latency is kept (not only autocannon's own percentiles), so the rounds of one side
 * can be pooled into one p99.
 */
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec.js';

export async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const target = new URL(spec.url);
  if (target.hostname !== '127.0.0.1') throw new Error(`load goes to 127.0.0.1 only, not ${target.hostname}`);
  const latenciesMs: number[] = [];
  let wrong = 0;
  let measuring = false;
  let answered = 0;
  let cpuBefore = process.cpuUsage();
  let started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        headers: spec.headers,
        connections: spec.connections,
        duration: (spec.settleMs + spec.durationMs) / 1000,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    setTimeout(() => {
      measuring = true;
      cpuBefore = process.cpuUsage();
      started = performance.now();
    }, spec.settleMs);
    instance.on('response', (_client, statusCode, resBytes, responseTime) => {
      answered += 1;
      if (!measuring) return;
      latenciesMs.push(responseTime);
      if (statusCode !== 200 || resBytes < spec.expectBytes) wrong += 1;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    requests: latenciesMs.length,
    answered,
    errors: wrong + result.errors + result.timeouts,
    seconds,
    latenciesMs,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}
