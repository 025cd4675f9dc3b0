/**
 * The two pictures of docs/architecture.md, as data: the layers of the code
 * (docs/architecture-layers.svg) and the way a pack order's coldkey travels from the request to the PDF
 * (docs/architecture-pack-order.svg), drawn by box-diagram.ts. `make architecture-picture` (this file with
 * `--write`) redraws both; test/architecture/architecture-picture.test.ts fails when a committed picture
 * differs from what this data draws, when a folder or module a picture names does not exist, or when a
 * folder of the house is missing from the layers picture.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Picture, renderSvg } from './box-diagram.js';

const MADE_BY = 'test/tools/architecture-picture.ts (make architecture-picture)';

// ---------------------------------------------------------------------------------------------------
// The layers.

const TAX_X = 300;
const TAX_W = 680;

export const LAYERS: Picture = {
  file: 'docs/architecture-layers.svg',
  title: 'The layers of the code',
  madeBy: MADE_BY,
  width: 1000,
  captions: [
    {
      x: 20,
      y: 30,
      text: 'The layers: an arrow is "imports"; each layer imports only from the ones below it',
      kind: 'heading',
    },
    {
      x: 20,
      y: 726,
      text: 'Every layer may also import the base modules. make deps checks the rules of .dependency-cruiser.cjs.',
      kind: 'legend',
    },
  ],
  boxes: [
    {
      id: 'batch',
      x: 20,
      y: 50,
      w: 440,
      tone: 'batch',
      title: 'pipeline/ — the daily batch',
      folder: 'pipeline/',
      lines: [
        { names: 'daily/  collect/  claims/  prices/  demo/' },
        { names: 'snapshots/  emissions/  yields/  status/' },
        {
          text: 'sbm: collects each day from the chain into the warehouse, then publishes one run of objects',
        },
      ],
    },
    {
      id: 'gateway',
      x: 540,
      y: 50,
      w: 440,
      tone: 'gateway',
      title: 'gateway/ — serves what was published',
      folder: 'gateway/',
      lines: [
        { names: 'routes/  http/  auth/  account/  web/' },
        { names: 'orders/  commands/  state/  snapshots/  metrics/' },
        {
          text: 'sbm-gateway: the API, the tax routes, orders and their fulfilment; never opens the DuckDB file',
        },
      ],
    },
    {
      id: 'warehouse',
      x: 20,
      y: 250,
      w: 240,
      tone: 'batch',
      title: 'pipeline/warehouse/',
      folder: 'pipeline/warehouse/',
      lines: [
        { text: 'the DuckDB schema, loading, and the queries the snapshots need; the batch side only' },
      ],
    },
    {
      id: 'tax',
      x: TAX_X,
      y: 200,
      w: TAX_W,
      tone: 'frame',
      title: 'pipeline/tax/ — the UK tax side, three layers',
      folder: 'pipeline/tax/',
      lines: [],
      frame: { minHeight: 380 },
    },
    {
      id: 'products',
      x: TAX_X + 20,
      y: 236,
      w: TAX_W - 40,
      tone: 'products',
      title: 'products/ — what a buyer gets',
      folder: 'pipeline/tax/products/',
      lines: [
        { names: 'compute-tax-year  pack/  own-records/  parse-coldkey  estimate-check  tax-command' },
        {
          text: "a tax year's ledger (the orchestrator), the pack's PDF, CSVs and exports, the buyer's own exchange records, the free check, sbm tax",
        },
      ],
    },
    {
      id: 'rules',
      x: TAX_X + 20,
      y: 350,
      w: TAX_W - 40,
      tone: 'rules',
      title: 'uk-rules/ — what UK tax makes of it, in GBP',
      folder: 'pipeline/tax/uk-rules/',
      lines: [
        { names: 'cgt/  gbp-prices  income-ledger  latest-tao-price  network-yields' },
        { text: 'GBP values at receipt, UK days and tax years, income, CGT matching, section 104 pools' },
      ],
    },
    {
      id: 'record',
      x: TAX_X + 20,
      y: 448,
      w: TAX_W - 40,
      tone: 'record',
      title: 'chain-record/ — what happened to a coldkey on chain',
      folder: 'pipeline/tax/chain-record/',
      lines: [
        { names: 'actions/  coldkey-chain  coldkey-events  read-coldkey-holdings  stake-at-blocks' },
        { names: 'uk-day-ends  ledger-event  tax-year-events' },
        {
          text: 'in RAO and blocks: events grouped into economic actions, the stake at past blocks, UK day ends, the coldkey-swap rule',
        },
      ],
    },
    {
      id: 'base',
      x: 20,
      y: 620,
      w: 660,
      tone: 'base',
      title: 'pipeline/ — the base modules',
      folder: 'pipeline/',
      lines: [
        { names: 'chain/  store/  contract/  time/  amounts/  csv/  threads/' },
        {
          text: 'JSON-RPC and event decoding, the object store, the public contract, UTC and UK days, exact RAO, worker threads',
        },
      ],
    },
    {
      id: 'devnet',
      x: 720,
      y: 620,
      w: 260,
      tone: 'outside',
      dashed: true,
      title: 'pipeline/devnet/',
      folder: 'pipeline/devnet/',
      lines: [{ text: 'the sandbox: a local chain that only sbm, the demo and the tests start' }],
    },
  ],
  arrows: [
    { from: 'batch', to: 'warehouse', fromSide: 'bottom', toSide: 'top', fromAt: 120 / 440 },
    {
      from: 'batch',
      to: 'tax',
      fromSide: 'bottom',
      toSide: 'top',
      fromAt: 0.8,
      toAt: 72 / 680,
      label: 'builds the tax objects',
    },
    { from: 'gateway', to: 'tax', fromSide: 'bottom', toSide: 'top', toAt: 460 / 680 },
    { from: 'products', to: 'rules', fromSide: 'bottom', toSide: 'top' },
    { from: 'rules', to: 'record', fromSide: 'bottom', toSide: 'top' },
    { from: 'warehouse', to: 'base', fromSide: 'bottom', toSide: 'top', toAt: 120 / 660 },
    { from: 'tax', to: 'base', fromSide: 'bottom', toSide: 'top', fromAt: 0.3, toAt: 484 / 660 },
  ],
};

// ---------------------------------------------------------------------------------------------------
// The way a pack order's coldkey travels.

const L1 = { x: 20, w: 190 };
const L2 = { x: 222, w: 275 };
const L3 = { x: 509, w: 300 };
const L4 = { x: 821, w: 164 };
const lane = (l: { x: number; w: number }, inset = 8) => ({ x: l.x + inset, w: l.w - 2 * inset });

export const PACK_ORDER: Picture = {
  file: 'docs/architecture-pack-order.svg',
  title: "The way a pack order's coldkey travels",
  madeBy: MADE_BY,
  width: 1000,
  captions: [
    { x: 20, y: 30, text: "A pack order's coldkey, from the request to the PDF", kind: 'heading' },
    { x: L1.x + 8, y: 62, text: 'the buyer and Stripe', kind: 'lane' },
    { x: L2.x + 8, y: 62, text: 'gateway/', kind: 'lane' },
    { x: L3.x + 8, y: 62, text: 'pipeline/tax/', kind: 'lane' },
    { x: L4.x + 8, y: 62, text: 'stores and nodes', kind: 'lane' },
  ],
  lanes: [
    { ...L1, tone: 'outside' },
    { ...L2, tone: 'gateway' },
    { ...L3, tone: 'products' },
    { ...L4, tone: 'base' },
  ],
  boxes: [
    {
      id: 'check',
      ...lane(L1),
      y: 80,
      step: 1,
      tone: 'outside',
      title: 'the free check',
      lines: [{ code: 'GET /tax/check.json' }, { code: '?coldkey=5…' }],
    },
    {
      id: 'check-route',
      ...lane(L2),
      y: 80,
      tone: 'gateway',
      title: 'gateway/routes/',
      folder: 'gateway/routes/',
      lines: [
        { names: 'tax.ts  tax-check-answer.ts' },
        { text: 'per-IP tax limit; the answer cached 24 h per coldkey in state/' },
      ],
    },
    {
      id: 'check-tax',
      ...lane(L3),
      y: 80,
      tone: 'products',
      title: 'products/ → chain-record/',
      folder: 'pipeline/tax/',
      lines: [
        { names: 'products/parse-coldkey' },
        { names: 'products/estimate-check' },
        { names: 'chain-record/read-coldkey-holdings' },
      ],
    },
    {
      id: 'node-head',
      ...lane(L4),
      y: 80,
      tone: 'outside',
      title: 'archive node',
      lines: [{ text: 'one read at the finalized head' }],
    },
    {
      id: 'order',
      ...lane(L1),
      y: 205,
      step: 2,
      tone: 'outside',
      title: 'the order',
      lines: [{ code: 'POST /tax/checkout' }, { code: '{ sku, coldkeys }' }],
    },
    {
      id: 'checkout',
      ...lane(L2),
      y: 205,
      tone: 'gateway',
      title: 'gateway/orders/',
      folder: 'gateway/orders/',
      lines: [
        { names: 'checkout.ts  create-order.ts' },
        { text: 'each coldkey parsed as the check parses it; the order stored "created" with its coldkeys' },
        { names: 'order-seal.ts' },
        { names: 'stripe-checkout.ts' },
        { text: 'the coldkeys sealed into the Checkout Session' },
      ],
    },
    {
      id: 'stripe',
      ...lane(L1),
      y: 400,
      step: 3,
      tone: 'outside',
      title: 'Stripe',
      lines: [{ text: "the buyer pays on Stripe's hosted checkout page (checkout_url)" }],
    },
    {
      id: 'webhook',
      ...lane(L2),
      y: 400,
      step: 4,
      tone: 'gateway',
      title: 'the signed webhook',
      folder: 'gateway/',
      lines: [
        { code: 'POST /tax/webhooks/stripe' },
        { names: 'routes/stripe-webhook.ts' },
        { names: 'orders/stripe-webhook.ts' },
        {
          text: 'order "created" → "paid" in state/; an order lost to a restore is made again from the sealed coldkeys',
        },
      ],
    },
    {
      id: 'fulfil',
      ...lane(L2),
      y: 580,
      step: 5,
      tone: 'gateway',
      title: 'the fulfilment job',
      folder: 'gateway/',
      lines: [
        { code: 'sbm-gateway orders fulfil' },
        { names: 'commands/orders.ts' },
        { names: 'orders/fulfilment-job.ts' },
        { text: "leases a paid order; its coldkeys go to the pack's build" },
      ],
    },
    {
      id: 'inputs',
      ...lane(L3),
      y: 580,
      step: 6,
      tone: 'products',
      title: 'products/pack/',
      folder: 'pipeline/tax/products/pack/',
      lines: [
        {
          text: "reads the published record: each coldkey's events, the UK days, GBP prices; follows coldkey swaps. compute-tax-year (products/) then asks the two layers below",
        },
      ],
    },
    {
      id: 'store-in',
      ...lane(L4),
      y: 580,
      tone: 'outside',
      title: 'object store',
      lines: [{ code: 'tax/coldkeys/' }, { text: 'published each day by the batch (snapshots/)' }],
    },
    {
      id: 'record',
      ...lane(L3),
      y: 722,
      step: 7,
      tone: 'record',
      title: 'chain-record/',
      folder: 'pipeline/tax/chain-record/',
      lines: [
        { names: 'actions/  stake-at-blocks' },
        {
          text: "the coldkeys' events → economic actions; their stake at every UK day end and around each event",
        },
      ],
    },
    {
      id: 'node-past',
      ...lane(L4),
      y: 722,
      tone: 'outside',
      title: 'archive node',
      lines: [{ text: 'reads at past blocks' }, { names: 'pipeline/chain/' }],
    },
    {
      id: 'rules',
      ...lane(L3),
      y: 846,
      step: 8,
      tone: 'rules',
      title: 'uk-rules/',
      folder: 'pipeline/tax/uk-rules/',
      lines: [
        { names: 'gbp-prices  income-ledger  cgt/' },
        { text: 'GBP at receipt, income per UK day, CGT matching and pools' },
      ],
    },
    {
      id: 'pdf',
      ...lane(L3),
      y: 954,
      step: 9,
      tone: 'products',
      title: 'products/pack/',
      folder: 'pipeline/tax/products/pack/',
      lines: [{ text: 'summary.pdf, the CSVs and the exports for BittyTax and Koinly, in one zip' }],
    },
    {
      id: 'deliver',
      ...lane(L2),
      y: 954,
      tone: 'gateway',
      title: 'gateway/orders/',
      folder: 'gateway/orders/',
      lines: [
        { names: 'fulfilment-job.ts' },
        { names: 'delivery-email.ts' },
        { text: 'the zip stored, the order "fulfilled", the link emailed' },
      ],
    },
    {
      id: 'store-out',
      ...lane(L4),
      y: 954,
      tone: 'outside',
      title: 'object store',
      lines: [{ text: 'the pack, kept 30 days' }],
    },
    {
      id: 'download',
      ...lane(L1),
      y: 954,
      step: 10,
      tone: 'outside',
      title: 'the download',
      lines: [
        { code: 'GET /tax/orders/' },
        { code: '{id}/pack?t=…' },
        { text: 'the zip, from the object store' },
      ],
    },
  ],
  arrows: [
    { from: 'check', to: 'check-route', fromSide: 'right', toSide: 'left', fromAt: 0.35 },
    { from: 'check-route', to: 'check-tax', fromSide: 'right', toSide: 'left', fromAt: 0.35 },
    { from: 'node-head', to: 'check-tax', fromSide: 'left', toSide: 'right', fromAt: 0.4 },
    { from: 'order', to: 'checkout', fromSide: 'right', toSide: 'left', fromAt: 0.3 },
    {
      from: 'checkout',
      to: 'stripe',
      fromSide: 'left',
      toSide: 'top',
      fromAt: 145 / 168,
      via: [[115, 350]],
      label: 'checkout_url',
      labelAt: [160, 341],
    },
    { from: 'stripe', to: 'webhook', fromSide: 'right', toSide: 'left', fromAt: 0.7 },
    { from: 'webhook', to: 'fulfil', fromSide: 'bottom', toSide: 'top', label: 'paid' },
    { from: 'fulfil', to: 'inputs', fromSide: 'right', toSide: 'left', fromAt: 0.4 },
    { from: 'store-in', to: 'inputs', fromSide: 'left', toSide: 'right', fromAt: 0.4 },
    { from: 'inputs', to: 'record', fromSide: 'bottom', toSide: 'top' },
    { from: 'node-past', to: 'record', fromSide: 'left', toSide: 'right', fromAt: 0.4 },
    { from: 'record', to: 'rules', fromSide: 'bottom', toSide: 'top' },
    { from: 'rules', to: 'pdf', fromSide: 'bottom', toSide: 'top' },
    { from: 'pdf', to: 'deliver', fromSide: 'left', toSide: 'right', fromAt: 0.4 },
    {
      from: 'deliver',
      to: 'store-out',
      fromSide: 'bottom',
      toSide: 'bottom',
      via: [
        [360, 1080],
        [903, 1080],
      ],
    },
    { from: 'deliver', to: 'download', fromSide: 'left', toSide: 'right', fromAt: 0.4 },
  ],
};

export const PICTURES: readonly Picture[] = [LAYERS, PACK_ORDER];

export const REPO = path.resolve(import.meta.dirname, '../..');

if (process.argv.includes('--write')) {
  for (const picture of PICTURES) {
    const file = path.join(REPO, picture.file);
    const svg = renderSvg(picture);
    const same = existsSync(file) && readFileSync(file, 'utf8') === svg;
    if (!same) writeFileSync(file, svg);
    process.stdout.write(`${picture.file}: ${same ? 'up to date' : 'rewritten'}\n`);
  }
}
