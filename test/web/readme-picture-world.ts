/**
 * The README's picture (docs/explorer.png) shows what `make demo` shows: the sandbox's mainnet world
 * (docs/sandbox.md), published by the real daily job and served by the real gateway with the sandbox
 * notice, opened in Debian's chromium at 1280×800. Ten-minute blocks keep the 35 days quick to collect;
 * the front page shows no block counts. Writes test-results/explorer/readme-explorer.png, which
 * test/web/readme-picture.sh reduces to docs/explorer.png (`make readme-picture` runs both).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadGatewayConfig } from '../../gateway/config.js';
import { startGateway } from '../../gateway/server.js';
import { silentProgress } from '../../pipeline/collect/progress.js';
import { readS3Settings } from '../../pipeline/config.js';
import { runDaily } from '../../pipeline/daily/run-daily.js';
import { defaultDevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';
import { sampleOnce } from '../../pipeline/emissions/sample-once.js';
import { openObjectStore } from '../../pipeline/store/index.js';
import { findChromium, launchBrowser } from './browser.js';

const SHOTS = resolve(import.meta.dirname, '../../test-results/explorer');

async function main(): Promise<void> {
  const chromium = findChromium();
  if (!chromium) throw new Error('no chromium: the picture needs a browser (root and apt-get install it)');
  const dir = await mkdtemp(join(tmpdir(), 'sbm-readme-picture-'));
  const devnet = await startDevnet({
    ...defaultDevnetOptions,
    magnitudes: 'mainnet',
    blockTimeMs: 600_000,
    port: 0,
    pricePort: 0,
  });
  try {
    process.stderr.write('[readme-picture] publishing 35 days of the mainnet sandbox world…\n');
    const storeUrl = `file:${join(dir, 'snapshots')}`;
    await runDaily({
      chainUrl: devnet.url,
      priceUrl: devnet.priceUrl,
      warehousePath: join(dir, 'burns.duckdb'),
      store: openObjectStore(storeUrl, readS3Settings({})),
      baseUrl: 'http://127.0.0.1',
      keepRuns: 2,
      concurrency: 16,
      progress: silentProgress,
      warn: (message) => process.stderr.write(`warning: ${message}\n`),
    });
    // One sample of the emissions watch, as `make demo` runs it: the table's emission column.
    await sampleOnce({
      chainUrl: devnet.url,
      dbPath: join(dir, 'emissions.duckdb'),
      store: openObjectStore(storeUrl, readS3Settings({})),
      baseUrl: 'http://127.0.0.1',
      keepRuns: 2,
      intervalMs: 300_000,
      concurrency: 8,
    });
    const gateway = await startGateway(
      loadGatewayConfig({
        SBM_PORT: '0',
        SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
        SBM_STORE_URL: storeUrl,
        SBM_CHAIN_URL: devnet.url,
        SBM_SANDBOX: '1',
      }),
      { log: () => {}, logSink: { write: () => true } },
    );
    const browser = await launchBrowser(chromium);
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
      await page.goto(`${gateway.url}/`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('table.subnets tbody tr');
      await mkdir(SHOTS, { recursive: true });
      const path = join(SHOTS, 'readme-explorer.png');
      await page.screenshot({ path, clip: { x: 0, y: 0, width: 1280, height: 800 } });
      process.stderr.write(`[readme-picture] wrote ${path}\n`);
    } finally {
      await browser.close();
      await gateway.close();
    }
  } finally {
    await devnet.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
