import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StripeFake } from '../devnet/stripe/stripe-fake.js';

const ENV_FILE = 'demo-orders.env';

export interface DemoOrders {
  /** The settings the gateway and the order commands need (also written to `envFile`). */
  env: Record<string, string>;
  envFile: string;
  standInUrl: string;
  /** The stand-in itself: the demo prints its time controls. */
  fake: StripeFake;
  close(): Promise<void>;
}

/**
 * The demo's tax orders: the Stripe stand-in (pipeline/devnet/stripe) in this process, and the settings
 * that point the gateway at it. The order secret and the webhook secret are generated once for the
 * demo and kept in `<dataDir>/demo-orders.env` (so order links from an earlier run keep working), unless
 * the environment already sets them; nothing outside the demo generates an order secret.
 */
export async function startDemoOrders(
  dataDir: string,
  baseUrl: string,
  /** The sandbox chain: `orders fulfil` reads the pack's stake from it, in the shell that sources the file. */
  chainUrl: string,
  environment: NodeJS.ProcessEnv,
  /** Where the stand-in listens (`make demo`: `SBM_STRIPE_PORT`, 12111 by default, the port of Stripe's own stripe-mock); 0: any free port. */
  standInPort = 0,
  /** The stand-in's clock (its events' times and signatures): the real one, or a test's shared with its gateway. */
  now: () => number = Date.now,
): Promise<DemoOrders> {
  const envFile = join(dataDir, ENV_FILE);
  const kept = await readEnvFile(envFile);
  const fake = new StripeFake({ now });
  const standInUrl = await fake.listen('127.0.0.1', standInPort);
  // The API plan's Price, made in the stand-in as an operator makes it in Stripe's dashboard.
  const planPrice = fake.createPrice({
    unitAmount: 9900,
    currency: 'usd',
    interval: 'month',
    name: 'API plan',
  });
  const env = {
    SBM_BASE_URL: baseUrl,
    SBM_CHAIN_URL: chainUrl,
    SBM_ORDER_SECRET:
      environment['SBM_ORDER_SECRET'] || kept['SBM_ORDER_SECRET'] || randomBytes(32).toString('hex'),
    STRIPE_SECRET_KEY: 'sk_test_sbm_demo_stand_in',
    STRIPE_WEBHOOK_SECRET:
      environment['STRIPE_WEBHOOK_SECRET'] ||
      kept['STRIPE_WEBHOOK_SECRET'] ||
      `whsec_demo_${randomBytes(24).toString('hex')}`,
    STRIPE_API_BASE: standInUrl,
    SBM_API_PLAN_PRICE: planPrice.id,
  };
  // The stand-in's hosted pages complete payments themselves and send the events to both endpoints,
  // as Stripe does: the tax orders' and the API plan's (each ignores the other's sessions).
  fake.addWebhook(`${baseUrl}/tax/webhooks/stripe`, env.STRIPE_WEBHOOK_SECRET);
  fake.addWebhook(`${baseUrl}/account/webhooks/stripe`, env.STRIPE_WEBHOOK_SECRET);
  await mkdir(dataDir, { recursive: true });
  await writeFile(
    envFile,
    `# Written by \`make demo\`: the demo's order settings (the Stripe stand-in, not Stripe).\n` +
      `# In another shell: set -a; . ${envFile}; set +a\n` +
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    { mode: 0o600 },
  );
  return { env, envFile, standInUrl, fake, close: () => fake.close() };
}

/** A pack on sale, as `sbm-gateway skus list --json` lists it. */
export interface PackOnSale {
  sku: string;
  tax_year: string;
}

/**
 * The lines `make demo` prints for the order flow: one checkout per pack on sale (each tax year the
 * published record covers), for the coldkey that holds the demo's stake. The demo runs the order jobs on
 * the shipped cron's schedule (`orders fulfil` every minute, `orders reconcile` every 15 minutes), so a
 * paid pack arrives by itself, as it would for a real buyer.
 */
export function demoOrderLines(
  orders: DemoOrders,
  base: string,
  coldkey: string,
  onSale: readonly PackOnSale[],
  /** Where the order jobs' output goes. */
  orderLog: string,
): string[] {
  const gateway = 'npm run -s sbm-gateway --';
  const buy = onSale.flatMap(({ sku, tax_year }) => [
    `  # tax year ${tax_year}:`,
    `  curl -s -X POST ${base}/tax/checkout -H 'content-type: application/json' \\`,
    `    -d '{"sku": "${sku}", "coldkeys": ["${coldkey}"]}'     # → order_id, checkout_url`,
  ]);
  const years = onSale.map((pack) => `${pack.tax_year} (${pack.sku})`).join(' and ');
  return [
    '',
    onSale.length > 0
      ? `Tax packs on sale: ${years}. Checkout talks to the local Stripe STAND-IN at ${orders.standInUrl}, not to Stripe:`
      : `No tax pack is on sale: the history collected covers no UK tax year from its 6 April (see \`skus list\`). Checkout talks to the local Stripe STAND-IN at ${orders.standInUrl}, not to Stripe:`,
    'nothing is charged. Buy one in the browser: the tax check of the demo coldkey offers it, or in another shell:',
    `  set -a; . ${orders.envFile}; set +a`,
    `  ${gateway} skus list`,
    ...buy,
    '  open CHECKOUT_URL                               # "Pay" on the stand-in page, as on Stripe\'s; back to the order page',
    `  ${gateway} stripe simulate-payment ORDER_ID     # or pay from the shell; prints the order page (SUCCESS_URL)`,
    `  curl -s 'SUCCESS_URL'                             # the order status (token t=…): paid, then fulfilled`,
    `  curl -s -o pack.zip '${base}/tax/orders/ORDER_ID/pack?t=TOKEN' && unzip -l pack.zip`,
    `  ${gateway} orders list`,
    "The pack arrives by itself, as a real buyer's does: the demo runs `orders fulfil` every minute and",
    "`orders reconcile` every 15 minutes, on the shipped cron's schedule (deploy/cron/sbm); the order page",
    `shows "Preparing" until the next minute's run has built it, and the email lands in data/outbox/ORDER_ID.eml.`,
    `Their output: ${orderLog} (the lines that change an order are printed here too).`,
    '',
    'The API plan, self-serve (99 USD a month through the Stripe STAND-IN; nothing is charged):',
    `  open ${base}/account          # email → the sign-in link lands in data/outbox/sign-in-*.eml`,
    '  then Subscribe → "Pay" on the stand-in page → create a key → Manage billing (cancel at period end)',
    `  curl -s -H 'Authorization: Bearer KEY' ${base}/api/v1/usage`,
    `  Time passing for a subscription SUB_ID (from the stand-in page or Manage billing):`,
    `  curl -s -X POST ${orders.standInUrl}/_stand-in/subscriptions/SUB_ID/renew-paid     # or renew-failed, end`,
  ];
}

async function readEnvFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return {};
  }
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}
