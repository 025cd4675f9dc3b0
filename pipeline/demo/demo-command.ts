import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { progressFor } from '../collect/progress.js';
import { DEMO_PORT_VARIABLES, type DemoPorts, type PipelineConfig } from '../config.js';
import { runDaily } from '../daily/run-daily.js';
import { DATED_HISTORY_LATEST_START } from '../devnet/options.js';
import { openObjectStore } from '../store/index.js';
import { ukTaxYear, ukTaxYearOf } from '../time/uk-tax-year.js';
import { addDays, DAY_MS, epochDay, formatUtcDay } from '../time/utc-day.js';
import { freePort, portIsFree, type RunningChild, runToEnd, startChild } from './child-process.js';
import { demoOrderLines, type PackOnSale, startDemoOrders } from './demo-orders.js';
import { setAsideOtherChain } from './fresh-data.js';
import { CRON_ORDER_JOBS, startOrderJobs } from './order-jobs.js';

const TSX = ['--import', 'tsx'];

/**
 * `sbm demo` (what `make demo` runs): the whole product on the embedded defaults. It starts the sandbox
 * chain, runs `sbm daily` over its history into ./data, starts the emissions watch, creates a demo API
 * key, starts the gateway and the order jobs on the shipped cron's schedule (`orders fulfil` every minute,
 * `orders reconcile` every 15 minutes), prints what to try, and stops everything it started on Ctrl-C. The gateway runs as its own process
 * (`sbm-gateway serve`): the pipeline never imports the gateway.
 */
export function demoCommand(config: PipelineConfig): Command {
  return new Command('demo')
    .description('sandbox chain → daily collection and publication → emissions watch → gateway, until Ctrl-C')
    .option('--seed <seed>', 'sandbox world seed', 'demo')
    .option(
      '--history-days <n>',
      "days of sandbox history to collect (default: from two days before the previous tax year, so its pack and this year's are on sale)",
    )
    .option(
      '--gateway-port <port>',
      'gateway port (SBM_PORT; 0: any free port)',
      String(config.demoPorts.gateway),
    )
    .action(async (options: { seed: string; historyDays?: string; gatewayPort: string }) => {
      const children: Pick<RunningChild, 'stop'>[] = [];
      const stopAll = () => Promise.all(children.reverse().map((child) => child.stop()));
      // Listening from the start: a Ctrl-C while the history is still being collected stops the sandbox
      // chain and whatever else was started too, instead of leaving them running.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      try {
        const ready = await Promise.race([
          runDemo(config, options, children).then(() => true),
          stopped.then(() => false),
        ]);
        if (ready) {
          process.stdout.write('\nPress Ctrl-C to stop the sandbox chain, the gateway and the order jobs.\n');
          await stopped;
        }
      } finally {
        await stopAll();
      }
    });
}

/**
 * The most blocks the demo's sandbox holds: 600 days of 10-minute blocks. A newcomer's wait is mostly the
 * collection's work per day (each day's subnet panel, its share pools, its commit), which no block time
 * changes; the blocks add the rest, so the demo keeps them few.
 */
export const DEMO_BLOCKS = 86_400;

/** The longest block the sandbox runs (`sbm devnet --block-time-ms` takes no more): ten minutes. */
export const DEMO_MAX_BLOCK_TIME_MS = 600_000;

/**
 * The demo's sandbox history: by default from two days before the previous UK tax year's 6 April, so that
 * the whole previous year and every UK day of the current one so far are collected and both packs are on
 * sale (only covered years are sold), on the runtimes mainnet ran on each date. It never begins later than
 * the last day a history by mainnet's dates can begin on (the sandbox's genesis state is of the runtimes
 * before buybacks). Its blocks are as long as it takes to hold the history in `DEMO_BLOCKS` blocks, from 12
 * seconds up to ten minutes: 10-minute blocks once the history is 600 days or longer.
 */
export function demoHistory(
  nowMs: number,
  historyDays?: number,
): { historyDays: number; blockTimeMs: number; firstDay: string; runtimesByDate: boolean } {
  const today = formatUtcDay(nowMs);
  const current = ukTaxYearOf(nowMs);
  const previousFirstDay = ukTaxYear(current.startYear - 1).firstDay;
  const wanted = addDays(previousFirstDay, -2);
  const start = wanted < DATED_HISTORY_LATEST_START ? wanted : DATED_HISTORY_LATEST_START;
  const days = historyDays ?? epochDay(today) - epochDay(start);
  const firstDay = addDays(today, -days);
  const blockTimeMs = Math.min(
    DEMO_MAX_BLOCK_TIME_MS,
    Math.max(12_000, Math.ceil((days * DAY_MS) / DEMO_BLOCKS / 1000) * 1000),
  );
  return {
    historyDays: days,
    blockTimeMs,
    firstDay,
    // A shorter history (`--history-days`) begins inside a later runtime: it gets the sandbox's default.
    runtimesByDate: firstDay <= DATED_HISTORY_LATEST_START,
  };
}

async function runDemo(
  config: PipelineConfig,
  options: { seed: string; historyDays?: string; gatewayPort: string },
  children: Pick<RunningChild, 'stop'>[],
): Promise<void> {
  const env = { ...process.env };
  if (options.historyDays !== undefined && !/^\d+$/.test(options.historyDays)) {
    throw new Error('--history-days must be a whole number of days');
  }
  const history = demoHistory(
    Date.now(),
    options.historyDays === undefined ? undefined : Number(options.historyDays),
  );
  const gatewayFlag = Number(options.gatewayPort);
  if (!Number.isInteger(gatewayFlag) || gatewayFlag < 0 || gatewayFlag > 65_535) {
    throw new Error('--gateway-port must be 0..65535');
  }
  const ports = await claimDemoPorts({ ...config.demoPorts, gateway: gatewayFlag });
  const [chainPort, pricePort] = [ports.devnet, ports.price];
  const say = (line: string) => process.stdout.write(`${line}\n`);

  say(
    `starting the sandbox chain (seed "${options.seed}", ${history.historyDays} days of history, ` +
      `${history.blockTimeMs / 1000}-second blocks${history.runtimesByDate ? ', each on the runtime mainnet ran that day' : ''})…`,
  );
  const devnet = await startChild(
    process.execPath,
    [
      ...TSX,
      'pipeline/cli.ts',
      'devnet',
      '--seed',
      options.seed,
      '--history-days',
      String(history.historyDays),
      '--block-time-ms',
      String(history.blockTimeMs),
      // Every block runs the runtime mainnet ran on its date, as an archive node serves it.
      ...(history.runtimesByDate ? ['--runtimes', 'mainnet'] : []),
      // The demo's long blocks each stand for many of mainnet's, and the filler of mainnet's traffic
      // holds no burn, stake or pool the demo shows: without it a newcomer's collection takes minutes
      // less. `sbm devnet` keeps mainnet's density by default.
      '--events-per-block',
      '0',
      // The big coldkeys (a validator, an owner, a miner, a staker in 100 subnets) add tens of thousands of
      // calls a year the demo's pages never show: the demo's world leaves them out, `sbm devnet` keeps them.
      '--no-big-coldkeys',
      '--port',
      String(chainPort),
      '--price-port',
      String(pricePort),
    ],
    // It prints its URL, the price API and the demo coldkey (the one with a rich staking history).
    { env, ready: /(ws:\/\/\S+)[\s\S]*?coldkey: (\S+)/, label: 'the sandbox chain', timeoutMs: 60_000 },
  );
  children.push(devnet.child);
  const chainUrl = devnet.match[1]!;
  const demoColdkey = devnet.match[2]!;
  say(`sandbox chain at ${chainUrl}`);

  const setAside = await setAsideOtherChain(
    chainUrl,
    {
      warehousePath: config.warehousePath,
      emissionsPath: config.emissionsPath,
      dataDir: 'data',
      // The gateway's default state (gateway/config.ts), which the demo's gateway uses unless told otherwise.
      statePath: (env['SBM_STATE_URL'] || 'sqlite:./data/gateway.sqlite').replace(/^sqlite:/, ''),
    },
    new Date(),
  );
  if (setAside.length > 0) {
    say(
      `the data folder held an earlier demo's chain (another day's sandbox): set aside as ${setAside.join(', ')}`,
    );
  }
  say('running `sbm daily` over the sandbox history (collect → fiat prices → publish)…');
  const { summary } = await runDaily({
    chainUrl,
    priceUrl: `http://127.0.0.1:${pricePort}/api/v3`,
    warehousePath: config.warehousePath,
    store: openObjectStore(config.storeUrl, config.s3),
    baseUrl: config.baseUrl,
    keepRuns: config.keepRuns,
    concurrency: config.concurrency,
    progress: progressFor(process.stderr),
    warn: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  say(
    `collected ${summary.collected.from} → ${summary.collected.to}: ${summary.collected.blocks} blocks, ` +
      `${summary.collected.burns} burns in ${summary.collected.seconds.toFixed(1)} s; ` +
      `published run ${summary.published.version} (${summary.published.objects} objects)`,
  );

  say('starting the emissions watch (one sample every five minutes)…');
  const watch = await startChild(
    process.execPath,
    [...TSX, 'pipeline/cli.ts', 'emissions', 'watch', '--chain-url', chainUrl],
    { env, ready: /(sampled block \d+|already sampled)/, label: 'the emissions watch', timeoutMs: 120_000 },
  );
  children.push(watch.child);

  const gatewayCli = [...TSX, 'gateway/cli.ts'];
  const account = JSON.parse(
    await runToEnd(process.execPath, [...gatewayCli, 'accounts', 'create', '--plan', 'api', '--json'], env),
  ) as { id: string };
  const key = JSON.parse(
    await runToEnd(
      process.execPath,
      [...gatewayCli, 'keys', 'create', '--account', account.id, '--json'],
      env,
    ),
  ) as { key: string };

  const port = ports.gateway;
  const base = `http://127.0.0.1:${port}`;
  // Checkout against the Stripe stand-in, with demo-only order and webhook secrets.
  const orders = await startDemoOrders(
    dirname(config.warehousePath),
    env['SBM_BASE_URL'] ?? base,
    chainUrl,
    env,
    ports.stripe,
  );
  children.push({ stop: orders.close });
  const gateway = await startChild(process.execPath, [...gatewayCli, 'serve', '--port', String(port)], {
    // The tax check reads the sandbox chain.
    // SBM_SANDBOX: every explorer page says it shows the sandbox's synthetic world.
    env: { ...env, ...orders.env, SBM_BASE_URL: env['SBM_BASE_URL'] ?? base, SBM_SANDBOX: '1' },
    ready: /listening on (\S+)/,
    label: 'the gateway',
    timeoutMs: 60_000,
  });
  children.push(gateway.child);
  // The order jobs on the shipped cron's schedule (deploy/cron/sbm), so a paid pack arrives by itself.
  const orderEnv = { ...env, ...orders.env, SBM_BASE_URL: env['SBM_BASE_URL'] ?? base };
  const orderLog = join(dirname(config.warehousePath), 'demo-orders.log');
  const jobs = startOrderJobs({ jobs: CRON_ORDER_JOBS, env: orderEnv, logFile: orderLog, say });
  children.push({ stop: jobs.stop });

  // The explorer first: the page a person opens; then a sign-in link for a demo subscriber, so the
  // subscriber-only windows and the CSV download can be tried in the browser too.
  say(`\nThe explorer: ${base}/   (subnets, charts, the tax check; open it in a browser)`);
  const subscriber = JSON.parse(
    await runToEnd(
      process.execPath,
      [...gatewayCli, 'accounts', 'create', '--plan', 'subscriber', '--json'],
      env,
    ),
  ) as { id: string };
  const signIn = JSON.parse(
    await runToEnd(
      process.execPath,
      [...gatewayCli, 'sessions', 'create', '--account', subscriber.id, '--link', '--json'],
      { ...env, SBM_BASE_URL: env['SBM_BASE_URL'] ?? base },
    ),
  ) as { url: string };
  say(`Sign in as a demo subscriber (one use, 15 minutes): ${signIn.url}`);
  say(`\nThe gateway is serving at ${base}. Try:`);
  say(`  curl -s ${base}/api/v1/subnets | head -c 600; echo`);
  say(`  curl -s ${base}/api/v1/subnets/1/history?days=7`);
  say(`  curl -s -H 'Authorization: Bearer ${key.key}' '${base}/api/v1/subnets/1/history.csv?days=30'`);
  say(`  curl -si ${base}/api/v1/subnets/1/history?days=90     # 401: a paid window`);
  say(`  curl -s ${base}/api/v1/emissions | head -c 600; echo`);
  say(`  curl -s '${base}/tax/check.json?coldkey=${demoColdkey}'     # the tax check of the demo coldkey`);
  say(`  curl -s ${base}/api/v1/openapi.json | head -c 300; echo`);
  say(`  open ${base}/api/v1/method`);
  say(`The demo API key above belongs to account ${account.id} (10,000 requests a month).`);
  // What the gateway sells now (the years the published record covers), asked of the gateway's own command.
  const onSale = JSON.parse(
    await runToEnd(process.execPath, [...gatewayCli, 'skus', 'list', '--json'], { ...env, ...orders.env }),
  ) as PackOnSale[];
  for (const line of demoOrderLines(orders, base, demoColdkey, onSale, orderLog)) say(line);
}

/**
 * The demo's ports, checked before anything starts: a port that is taken is an error naming it and the
 * variable that sets it (never a silent move to another port, which would leave the printed addresses and
 * a bookmarked explorer pointing elsewhere). 0 means any free port, chosen here.
 */
export async function claimDemoPorts(wanted: DemoPorts): Promise<DemoPorts> {
  const chosen = { ...wanted };
  const names = Object.keys(DEMO_PORT_VARIABLES) as (keyof DemoPorts)[];
  for (const name of names) {
    const port = wanted[name];
    if (port === 0) continue;
    if (names.some((other) => other !== name && wanted[other] === port)) {
      throw new Error(
        `port ${port} is set for two of ${names.map((n) => DEMO_PORT_VARIABLES[n]).join(', ')}; give each its own`,
      );
    }
    if (!(await portIsFree(port))) {
      const variable = DEMO_PORT_VARIABLES[name];
      throw new Error(
        `port ${port} is taken (${variable}): stop what listens there, or choose another, e.g. ${variable}=${port + 1} make demo`,
      );
    }
  }
  for (const name of names) if (chosen[name] === 0) chosen[name] = await freePort();
  return chosen;
}
