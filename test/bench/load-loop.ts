/**
 * A bounded HTTP load loop: `connections` keep-alive sockets, each running one request at a time in a
 * closed loop until the duration or the request cap is reached, recording every request's latency.
 * Loopback only; no dependency (autocannon is not installed, wrk is not on the machine).
 */
import { Agent, request } from 'node:http';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
  /** Hard stop however fast the server is, so a loop can never run away. */
  maxRequests: number;
  /** Every answer must have this status and this many body bytes, or it counts as an error. */
  expectBytes: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Per-request latency in milliseconds, in completion order. */
  latenciesMs: number[];
  /** CPU the load generator itself used, in seconds, to tell a saturated client from a slow server. */
  clientCpuSeconds: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const target = new URL(spec.url);
  if (target.hostname !== '127.0.0.1') throw new Error(`load goes to 127.0.0.1 only, not ${target.hostname}`);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const latenciesMs: number[] = [];
  let issued = 0;
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + spec.durationMs;
  const loop = async () => {
    while (performance.now() < deadline && issued < spec.maxRequests) {
      issued += 1;
      const sent = performance.now();
      const ok = await get(agent, target, spec.headers, spec.expectBytes);
      latenciesMs.push(performance.now() - sent);
      if (!ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return {
    requests: latenciesMs.length,
    errors,
    seconds,
    latenciesMs,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function get(
  agent: Agent,
  target: URL,
  headers: Record<string, string>,
  expectBytes: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(target, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(res.statusCode === 200 && bytes === expectBytes));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}
