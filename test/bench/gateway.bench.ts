/**
 * The gateway under load against, in the same run, a bare `node:http` server answering the same bytes
 * (same encoding) and Debian's nginx serving the same bytes from files (one worker, sendfile,
 * gzip_static): wrk (or, where it cannot be installed, autocannon) with 50 keep-alive connections on
 * loopback, 10 s a side in five alternating 2 s rounds (short rounds, so that a slow spell of a shared
 * VM falls on every side alike). Three requests: the public subnet list, a keyed
 * 90-day history (API key checked and metered in SQLite), and the subnet list in brotli. The gateway
 * runs as operators run it: `startGateway`, request log on (to a file). For the public list (identity and
 * brotli) a fifth side is the deployment as shipped: deploy/nginx/sbm.conf in front of the gateway
 * (`shipped-nginx.ts`), whose cache answers public reads, against nginx serving the same bytes as a file.
 * Every target is a ratio within the run (issue 37): public ≥ 0.9 × bare, keyed ≥ 0.8 × bare, brotli
 * ≥ 0.9 × bare, each gateway p99 ≤ 1.5 × the bare server's p99; the brotli body within 3 % of brotli
 * quality 11 of the same bytes; through the shipped nginx ≥ 0.9 × nginx serving the file. The gateway
 * writes its answers at the end of each event-loop turn (`gateway/http/end-of-turn.ts`), which a plain
 * handler does not; so a second bare server, writing the same way, shows what the gateway's own work
 * costs once that scheduling is taken out (for information: the targets are against the plain bare server).
 */
import { request } from 'node:http';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { startBareServer } from './bare-server.js';
import { benchWorld, describeWorld, YEAR_WORLD } from './bench-world.js';
import { startGatewayFixture } from './gateway-fixture.js';
import { loadTool } from './load-generator.js';
import { alternate, type Side, type SideFigures } from './load-rounds.js';
import { nginxAvailable, startNginx } from './nginx-server.js';
import { verdict } from './sample-stats.js';
import { startShippedNginx } from './shipped-nginx.js';

const ROUNDS = { connections: 50, roundMs: 2_000, rounds: 5, warmupMs: 1_000, settleMs: 500 };
/** Each gateway p99 at most this many times the bare server's p99 in the same run. */
const P99_RATIO_TARGET = 1.5;
/** Public reads through the shipped nginx, against nginx serving the same bytes as a file. */
const SHIPPED_NGINX_TARGET = 0.9;
/** The brotli body at most this much larger than brotli quality 11 of the same bytes. */
const BROTLI_SLACK = 0.03;

interface Endpoint {
  name: string;
  path: string;
  keyed: boolean;
  acceptEncoding?: 'br';
  /** Minimum gateway / bare ratio of requests per second. */
  target: number;
  /** Whether the answer's size is held against brotli quality 11 of its identity bytes. */
  brotliTarget?: boolean;
  /** Whether the shipped nginx (its cache in front of the gateway) is measured too. */
  throughShippedNginx?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'public GET /api/v1/subnets',
    path: '/api/v1/subnets',
    keyed: false,
    target: 0.9,
    throughShippedNginx: true,
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
    brotliTarget: true,
    throughShippedNginx: true,
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
  const shipped = withNginx ? await startShippedNginx(gateway.url) : null;
  try {
    for (const endpoint of ENDPOINTS) {
      const headers: Record<string, string> = {};
      if (endpoint.keyed) headers['authorization'] = `Bearer ${gateway.apiKey}`;
      if (endpoint.acceptEncoding) headers['accept-encoding'] = endpoint.acceptEncoding;
      // The baselines answer exactly what the gateway answers (freshness rewrite and encoding included).
      const answer = await fetchOnce(`${gateway.url}${endpoint.path}`, headers);
      const encoding = answer.encoding === 'br' ? 'br' : undefined;
      const quality11 = endpoint.brotliTarget
        ? brotliQuality11(
            (await fetchOnce(`${gateway.url}${endpoint.path}`, { 'accept-encoding': 'identity' })).body,
          )
        : undefined;
      // Through the shipped nginx: the first request fills its cache; the bytes must be the gateway's.
      const viaShipped = shipped && endpoint.throughShippedNginx ? `${shipped.url}${endpoint.path}` : null;
      if (viaShipped) {
        await fetchOnce(viaShipped, headers);
        const kept = await fetchOnce(viaShipped, headers);
        if (Buffer.compare(Buffer.from(kept.body), Buffer.from(answer.body)) !== 0 || kept.cache !== 'HIT') {
          throw new Error(`the shipped nginx answered other bytes, or not from its cache (${kept.cache})`);
        }
      }
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
        if (nginx && viaShipped) sides.push({ name: 'shipped nginx', url: viaShipped, headers });
        const [base, subject, sameWrites, reference, deployed] = await alternate(sides, {
          ...ROUNDS,
          expectBytes: answer.body.byteLength,
        });
        report(
          endpoint,
          answer.body.byteLength,
          quality11,
          base!,
          subject!,
          sameWrites!,
          reference,
          deployed,
        );
      } finally {
        await bare.close();
        await bareAtTurnEnd.close();
        await nginx?.close();
      }
    }
  } finally {
    await shipped?.close();
    await gateway.close();
  }
}

/** Brotli at quality 11 (the largest window the body needs), as `sbm publish` precompresses. */
function brotliQuality11(body: Uint8Array): number {
  return brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 11,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  }).byteLength;
}

function report(
  endpoint: Endpoint,
  bytes: number,
  quality11: number | undefined,
  bare: SideFigures,
  gateway: SideFigures,
  bareAtTurnEnd: SideFigures,
  nginx: SideFigures | undefined,
  shipped: SideFigures | undefined,
): void {
  print(
    `\n${endpoint.name} (${bytes} bytes, ${ROUNDS.connections} connections, ${(ROUNDS.rounds * ROUNDS.roundMs) / 1000} s a side)`,
  );
  const sides: [string, SideFigures][] = [
    ['bare', bare],
    ['gateway', gateway],
    ['bare, turn-end writes', bareAtTurnEnd],
  ];
  if (nginx) sides.push(['nginx (file)', nginx]);
  if (shipped) sides.push(['shipped nginx (cache)', shipped]);
  for (const [name, side] of sides) {
    // nginx runs in its own process: this process's CPU is not its cost.
    const cpu =
      side === nginx || side === shipped ? '   n/a' : side.serverCpuUsPerRequest.toFixed(0).padStart(6);
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
  const p99Ratio = gateway.p99Ms / bare.p99Ms;
  print(
    `  p99 ratio gateway/bare ${p99Ratio.toFixed(2)}  target ≤ ${P99_RATIO_TARGET}  ${verdict(p99Ratio <= P99_RATIO_TARGET)}` +
      `  (gateway ${gateway.p99Ms.toFixed(2)} ms, bare ${bare.p99Ms.toFixed(2)} ms)`,
  );
  print(
    `  ratio gateway/(bare, turn-end writes) ${(gateway.requestsPerSecond / bareAtTurnEnd.requestsPerSecond).toFixed(2)}` +
      "  (information: the gateway's own work, with the same write scheduling on both sides)",
  );
  if (nginx) {
    print(
      `  ratio gateway/nginx ${(gateway.requestsPerSecond / nginx.requestsPerSecond).toFixed(2)}` +
        `  (information; bare/nginx ${(bare.requestsPerSecond / nginx.requestsPerSecond).toFixed(2)})`,
    );
  }
  if (nginx && shipped) {
    const toFile = shipped.requestsPerSecond / nginx.requestsPerSecond;
    print(
      `  ratio shipped nginx/nginx (file) ${toFile.toFixed(2)}  target ≥ ${SHIPPED_NGINX_TARGET}  ${verdict(toFile >= SHIPPED_NGINX_TARGET)}` +
        `  (p99 ${shipped.p99Ms.toFixed(2)} against ${nginx.p99Ms.toFixed(2)} ms)`,
    );
  }
  if (quality11 !== undefined) {
    const over = bytes / quality11 - 1;
    print(
      `  answer ${bytes} bytes, brotli quality 11 of the same bytes ${quality11}: ${(over * 100).toFixed(1)} % over` +
        `  target ≤ ${BROTLI_SLACK * 100} %  ${verdict(over <= BROTLI_SLACK)}`,
    );
  }
  const cost = gateway.serverCpuUsPerRequest / bare.serverCpuUsPerRequest;
  print(`  server CPU per request gateway/bare ${cost.toFixed(1)}×`);
  if (gateway.errors > 0 || bare.errors > 0 || (nginx?.errors ?? 0) > 0 || (shipped?.errors ?? 0) > 0)
    print('  WARNING: some answers were not 200 with the expected bytes');
}

/** One request on its own connection (closed after), so no idle socket holds the gateway open. */
function fetchOnce(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Uint8Array; contentType: string; encoding?: string; cache?: string }> {
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
          ...(res.headers['x-cache-status'] ? { cache: String(res.headers['x-cache-status']) } : {}),
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
