/**
 * The gateway under load against a bare `node:http` server answering the same bytes, in the same run:
 * wrk (or, where it cannot be installed, autocannon) with 50 keep-alive connections on loopback, 10 s
 * a side in two alternating 5 s rounds, for the public subnet list and a keyed 90-day history (API key
 * checked and metered in SQLite on every request).
 * Targets: public ≥ 0.7 × bare, keyed ≥ 0.5 × bare (requests per second), gateway p99 < 10 ms.
 */
import { request } from 'node:http';
import { startBareServer } from './bare-server.js';
import { benchWorld, describeWorld, YEAR_WORLD } from './bench-world.js';
import { startGatewayFixture } from './gateway-fixture.js';
import { loadTool } from './load-generator.js';
import { alternate, type SideFigures } from './load-rounds.js';
import { verdict } from './sample-stats.js';

const ROUNDS = { connections: 50, roundMs: 5_000, rounds: 2, warmupMs: 1_000, settleMs: 500 };
const P99_TARGET_MS = 10;

interface Endpoint {
  name: string;
  path: string;
  keyed: boolean;
  /** Minimum gateway / bare ratio of requests per second. */
  target: number;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'public GET /api/v1/subnets', path: '/api/v1/subnets', keyed: false, target: 0.7 },
  {
    name: 'keyed GET /api/v1/subnets/1/history?days=90',
    path: '/api/v1/subnets/1/history?days=90',
    keyed: true,
    target: 0.5,
  },
];

export async function run(): Promise<void> {
  const world = await benchWorld(YEAR_WORLD);
  print(describeWorld(world));
  print(
    loadTool() === 'wrk'
      ? 'load generator: wrk'
      : 'load generator: autocannon (wrk is not installed: `make bench` installs it as root with apt-get). ' +
          'autocannon parses every body in JavaScript and runs out of CPU before the server does on large ' +
          'bodies, so its latencies include its own queueing: compare with the bare p99.',
  );
  const gateway = await startGatewayFixture(world);
  try {
    for (const endpoint of ENDPOINTS) {
      const headers: Record<string, string> = endpoint.keyed
        ? { authorization: `Bearer ${gateway.apiKey}` }
        : {};
      // The bare server answers exactly what the gateway answers (freshness rewrite included).
      const answer = await fetchOnce(`${gateway.url}${endpoint.path}`, headers);
      const bare = await startBareServer(new Map([[endpoint.path, answer]]));
      try {
        const [base, subject] = await alternate(
          [
            { name: 'bare', url: `${bare.url}${endpoint.path}`, headers },
            { name: 'gateway', url: `${gateway.url}${endpoint.path}`, headers },
          ],
          { ...ROUNDS, expectBytes: answer.body.byteLength },
        );
        report(endpoint, answer.body.byteLength, base!, subject!);
      } finally {
        await bare.close();
      }
    }
  } finally {
    await gateway.close();
  }
}

function report(endpoint: Endpoint, bytes: number, bare: SideFigures, gateway: SideFigures): void {
  print(
    `\n${endpoint.name} (${bytes} bytes, ${ROUNDS.connections} connections, ${(ROUNDS.rounds * ROUNDS.roundMs) / 1000} s a side)`,
  );
  for (const [name, side] of [
    ['bare   ', bare],
    ['gateway', gateway],
  ] as const) {
    print(
      `  ${name} ${side.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${side.p50Ms.toFixed(2)} ms  ` +
        `p99 ${side.p99Ms.toFixed(2)} ms  server CPU ${side.serverCpuUsPerRequest.toFixed(0)} µs/req  ` +
        `client CPU ${(side.clientCpuShare * 100).toFixed(0)}%  errors ${side.errors}/${side.requests}`,
    );
  }
  const ratio = gateway.requestsPerSecond / bare.requestsPerSecond;
  print(
    `  ratio gateway/bare ${ratio.toFixed(2)}  target ≥ ${endpoint.target}  ${verdict(ratio >= endpoint.target)}`,
  );
  // The bare server's p99 is the floor the load generator can measure on this machine: when the
  // client is at 100% CPU, its own queueing is in every latency it records.
  print(
    `  gateway p99 ${gateway.p99Ms.toFixed(2)} ms  target < ${P99_TARGET_MS} ms  ${verdict(gateway.p99Ms < P99_TARGET_MS)}` +
      `  (bare p99 ${bare.p99Ms.toFixed(2)} ms)`,
  );
  const cost = gateway.serverCpuUsPerRequest / bare.serverCpuUsPerRequest;
  print(`  server CPU per request gateway/bare ${cost.toFixed(1)}×`);
  if (gateway.errors > 0 || bare.errors > 0)
    print('  WARNING: some answers were not 200 with the expected bytes');
}

/** One request on its own connection (closed after), so no idle socket holds the gateway open. */
function fetchOnce(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Uint8Array; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) {
          reject(
            new Error(
              `GET ${url} answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`,
            ),
          );
          return;
        }
        resolve({
          body: new Uint8Array(Buffer.concat(chunks)),
          contentType: String(res.headers['content-type']),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}
