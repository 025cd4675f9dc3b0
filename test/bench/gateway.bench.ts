/**
 * The gateway under load against, in the same run, a bare `node:http` server answering the same bytes
 * (same encoding) and Debian's nginx serving the same bytes from files (one worker, sendfile,
 * gzip_static): wrk (or, where it cannot be installed, autocannon) with 50 keep-alive connections on
 * loopback, 10 s a side in five alternating 2 s rounds (short rounds, so that a slow spell of a shared
 * VM falls on every side alike). Three requests: the public subnet list, a keyed
 * 90-day history (API key checked and metered in SQLite), and the subnet list in brotli. The gateway
 * runs as operators run it: `startGateway`, request log on (to a file).
 * Targets: public ≥ 0.9 × bare, keyed ≥ 0.8 × bare, brotli ≥ 0.9 × bare and under 8 KB, p99 < 5 ms,
 * public ≥ 0.6 × nginx. The gateway writes its answers at the end of each event-loop turn
 * (`gateway/http/end-of-turn.ts`), which a plain handler does not; so a second bare server, writing
 * the same way, shows what the gateway's own work costs once that scheduling is taken out (for
 * information: the targets are against the plain bare server).
 */
import { request } from 'node:http';
import { startBareServer } from './bare-server.js';
import { benchWorld, describeWorld, YEAR_WORLD } from './bench-world.js';
import { startGatewayFixture } from './gateway-fixture.js';
import { loadTool } from './load-generator.js';
import { alternate, type Side, type SideFigures } from './load-rounds.js';
import { nginxAvailable, startNginx } from './nginx-server.js';
import { verdict } from './sample-stats.js';

const ROUNDS = { connections: 50, roundMs: 2_000, rounds: 5, warmupMs: 1_000, settleMs: 500 };
const P99_TARGET_MS = 5;
const NGINX_TARGET = 0.6;

interface Endpoint {
  name: string;
  path: string;
  keyed: boolean;
  acceptEncoding?: 'br';
  /** Minimum gateway / bare ratio of requests per second. */
  target: number;
  /** Largest answer in bytes, where the size is a target. */
  maxBytes?: number;
  /** The gateway / nginx ratio target, where there is one. */
  nginxTarget?: number;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'public GET /api/v1/subnets',
    path: '/api/v1/subnets',
    keyed: false,
    target: 0.9,
    nginxTarget: NGINX_TARGET,
  },
  {
    name: 'keyed GET /api/v1/subnets/1/history?days=90',
    path: '/api/v1/subnets/1/history?days=90',
    keyed: true,
    target: 0.8,
  },
  {
    name: 'public GET /api/v1/subnets, Accept-Encoding: br',
    path: '/api/v1/subnets',
    keyed: false,
    acceptEncoding: 'br',
    target: 0.9,
    maxBytes: 8 * 1024,
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
  const withNginx = nginxAvailable();
  if (!withNginx) print('nginx is not installed (`make bench` installs it as root with apt-get): bare only');
  const gateway = await startGatewayFixture(world);
  try {
    for (const endpoint of ENDPOINTS) {
      const headers: Record<string, string> = {};
      if (endpoint.keyed) headers['authorization'] = `Bearer ${gateway.apiKey}`;
      if (endpoint.acceptEncoding) headers['accept-encoding'] = endpoint.acceptEncoding;
      // The baselines answer exactly what the gateway answers (freshness rewrite and encoding included).
      const answer = await fetchOnce(`${gateway.url}${endpoint.path}`, headers);
      const encoding = answer.encoding === 'br' ? 'br' : undefined;
      const bare = await startBareServer(new Map([[endpoint.path, answer]]));
      const bareAtTurnEnd = await startBareServer(new Map([[endpoint.path, answer]]), { endOfTurn: true });
      // nginx maps paths to files: the same bytes at a path without the query string.
      const filePath = endpoint.path.replace(/[?=&]/g, '-');
      const nginx = withNginx
        ? await startNginx([
            {
              path: filePath,
              body: answer.body,
              contentType: answer.contentType,
              ...(encoding ? { encoding } : {}),
            },
          ])
        : null;
      try {
        const sides: Side[] = [
          { name: 'bare', url: `${bare.url}${endpoint.path}`, headers },
          { name: 'gateway', url: `${gateway.url}${endpoint.path}`, headers },
          { name: 'bare, turn-end writes', url: `${bareAtTurnEnd.url}${endpoint.path}`, headers },
        ];
        if (nginx) sides.push({ name: 'nginx', url: `${nginx.url}${filePath}`, headers });
        const [base, subject, sameWrites, reference] = await alternate(sides, {
          ...ROUNDS,
          expectBytes: answer.body.byteLength,
        });
        report(endpoint, answer.body.byteLength, base!, subject!, sameWrites!, reference);
      } finally {
        await bare.close();
        await bareAtTurnEnd.close();
        await nginx?.close();
      }
    }
  } finally {
    await gateway.close();
  }
}

function report(
  endpoint: Endpoint,
  bytes: number,
  bare: SideFigures,
  gateway: SideFigures,
  bareAtTurnEnd: SideFigures,
  nginx: SideFigures | undefined,
): void {
  print(
    `\n${endpoint.name} (${bytes} bytes, ${ROUNDS.connections} connections, ${(ROUNDS.rounds * ROUNDS.roundMs) / 1000} s a side)`,
  );
  const sides: [string, SideFigures][] = [
    ['bare', bare],
    ['gateway', gateway],
    ['bare, turn-end writes', bareAtTurnEnd],
  ];
  if (nginx) sides.push(['nginx', nginx]);
  for (const [name, side] of sides) {
    // nginx runs in its own process: this process's CPU is not its cost.
    const cpu = side === nginx ? '   n/a' : side.serverCpuUsPerRequest.toFixed(0).padStart(6);
    print(
      `  ${name.padEnd(21)} ${side.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${side.p50Ms.toFixed(2)} ms  ` +
        `p99 ${side.p99Ms.toFixed(2)} ms  server CPU ${cpu} µs/req  ` +
        `client CPU ${(side.clientCpuShare * 100).toFixed(0)}%  errors ${side.errors}/${side.requests}`,
    );
  }
  const ratio = gateway.requestsPerSecond / bare.requestsPerSecond;
  print(
    `  ratio gateway/bare ${ratio.toFixed(2)}  target ≥ ${endpoint.target}  ${verdict(ratio >= endpoint.target)}`,
  );
  print(
    `  ratio gateway/(bare, turn-end writes) ${(gateway.requestsPerSecond / bareAtTurnEnd.requestsPerSecond).toFixed(2)}` +
      "  (information: the gateway's own work, with the same write scheduling on both sides)",
  );
  if (nginx) {
    const toNginx = gateway.requestsPerSecond / nginx.requestsPerSecond;
    const target = endpoint.nginxTarget;
    print(
      `  ratio gateway/nginx ${toNginx.toFixed(2)}` +
        (target === undefined ? '' : `  target ≥ ${target}  ${verdict(toNginx >= target)}`) +
        `  (bare/nginx ${(bare.requestsPerSecond / nginx.requestsPerSecond).toFixed(2)})`,
    );
  }
  if (endpoint.maxBytes !== undefined) {
    print(`  answer ${bytes} bytes  target < ${endpoint.maxBytes}  ${verdict(bytes < endpoint.maxBytes)}`);
  }
  // The bare server's p99 is the floor the load generator can measure on this machine: when the
  // client is at 100% CPU, its own queueing is in every latency it records.
  print(
    `  gateway p99 ${gateway.p99Ms.toFixed(2)} ms  target < ${P99_TARGET_MS} ms  ${verdict(gateway.p99Ms < P99_TARGET_MS)}` +
      `  (bare p99 ${bare.p99Ms.toFixed(2)} ms${nginx ? `, nginx p99 ${nginx.p99Ms.toFixed(2)} ms` : ''})`,
  );
  const cost = gateway.serverCpuUsPerRequest / bare.serverCpuUsPerRequest;
  print(`  server CPU per request gateway/bare ${cost.toFixed(1)}×`);
  if (gateway.errors > 0 || bare.errors > 0 || (nginx?.errors ?? 0) > 0)
    print('  WARNING: some answers were not 200 with the expected bytes');
}

/** One request on its own connection (closed after), so no idle socket holds the gateway open. */
function fetchOnce(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Uint8Array; contentType: string; encoding?: string }> {
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
          ...(res.headers['content-encoding'] ? { encoding: res.headers['content-encoding'] } : {}),
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
