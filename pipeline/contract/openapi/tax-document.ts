import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { CheckoutRequest, CheckoutSession, WebhookAck } from '../checkout.js';
import { Order } from '../order.js';
import { DEFAULT_SKUS, type Sku } from '../sku.js';
import { Coldkey, TaxCheck } from '../tax-check.js';
import { dispositionHeader, errorResponse, jsonOk, tooManyRequests, wholeNumber } from './responses.js';

const orderToken = z.string().meta({
  description:
    'Order token: hex HMAC-SHA256 of the order id (64 lower-case hex characters), from the checkout success ' +
    'URL (`ot`) or the delivery email.',
});
const orderParams = { path: z.object({ order_id: z.string() }), query: z.object({ t: orderToken }) };
const limited = tooManyRequests(
  'More than 20 requests per hour from one IP across the check and order endpoints.',
);
const unknownOrder = errorResponse('Unknown order, or wrong or missing token (the same answer for both).');

const CHECK_DESCRIPTION = [
  'A computation tool, not tax advice: an estimate of this UK tax year’s staking income and the tax on it at',
  'the 40% and 45% rates, for one public coldkey address. No credential; 20 requests an hour per IP address,',
  'shared with the order routes.',
  '',
  'How it is made: one chain read at the finalized head gives every stake position of the coldkey (root TAO',
  'and alpha per subnet), the pools of the subnets it holds and its free balance. Alpha is valued in TAO at',
  'each pool’s price. Yields are the network’s, derived from the chain: the growth of hotkey share prices over',
  'the last 7 complete UTC days, stake-weighted, as a simple annual rate; the alpha yield is weighted by the',
  'value held in each subnet. Income is today’s stake at those yields over the part of the tax year elapsed',
  '(6 April, 00:00 London time, to now): it assumes the stake was held all year, so it is a stated estimate,',
  'not the income received. GBP and USD use the latest published daily TAO price. Each field says how it is made.',
  '',
  'Privacy: nothing is stored about the caller; the request log keeps the route, never the query or the',
  'coldkey; the answer is cached by a hash of the coldkey.',
].join('\n');

const privateNoStore = { 'Cache-Control': z.string().meta({ description: 'Always `private, no-store`.' }) };
const retryAfter = { 'Retry-After': wholeNumber('Seconds to wait before trying again.') };

function checkoutDescription(skus: readonly Sku[]): string {
  const price = (sku: Sku) => `${(sku.amount_minor / 100).toFixed(2)} ${sku.currency.toUpperCase()}`;
  return [
    'Starts the purchase of a tax pack: stores the order (`created`) and opens a Stripe Checkout Session (payment',
    'mode; Stripe’s page collects the buyer’s email). Send the buyer to `checkout_url`. After payment Stripe',
    'returns them to the success URL, `/tax/orders/{order_id}?t=<token>&ot=<token>`, which is the order status;',
    'the pack link arrives by email once the pack is made. Counts against the tax limit (20 an hour per IP).',
    '',
    'Packs on sale (prices in pence as `amount_minor`; an operator may change them):',
    '',
    '| sku | pack | tax year | coldkeys | price |',
    '|---|---|---|---|---|',
    ...skus.map(
      (sku) =>
        `| \`${sku.sku}\` | ${sku.name} | ${sku.tax_year} | 1 to ${sku.max_coldkeys} | ${price(sku)} |`,
    ),
  ].join('\n');
}

const RECORDS_DESCRIPTION = [
  'After payment and until the pack expires, the buyer adds the records the chain does not show (their',
  'exchange trades and other wallets), the addresses that are their own, and the section 104 pools they start from.',
  'Every file is read and checked before anything is kept; an accepted upload becomes the next version of the pack',
  '(2, 3, …), built once by the fulfilment job from every accepted file of the order so far. If the build refuses',
  'the records against the chain record, the revision is `rejected` with its problem and the earlier pack stays.',
  'The files are kept with the pack and deleted with it; never logged. Counts against the tax limit.',
].join('\n');

const UploadProblems = z
  .object({
    detail: z.string(),
    problems: z.array(
      z.object({
        file: z.string(),
        line: z.number().int().meta({ description: '0: the file as a whole.' }),
        column: z.string().nullable(),
        reason: z.string(),
      }),
    ),
  })
  .meta({ id: 'UploadProblems' });

const WEBHOOK_DESCRIPTION = [
  'Stripe’s payment events, not part of the caller interface. Verified with the endpoint’s signing',
  'secret over the raw body (`Stripe-Signature`, 300 s tolerance). `checkout.session.completed` with',
  '`payment_status: paid` and `checkout.session.async_payment_succeeded` move the order `created → paid` when',
  'the amount and currency equal the order’s; each event id is processed once (a replay answers 200 and changes',
  'nothing); other events, and events for unknown orders, answer 200 and are ignored. Not under the tax limit.',
].join('\n');

/**
 * The tax interface's OpenAPI 3.1 document, generated from the contract schemas. `skus` is the
 * catalogue the checkout sells from (the served document shows the configured prices).
 */
export function buildTaxDocument(serverUrl = '/', skus: readonly Sku[] = DEFAULT_SKUS) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Subnet burn metrics: tax interface',
      version: '1.0.0',
      description:
        'A free estimate for one coldkey and paid UK tax packs. A computation tool, not tax advice: the figures ' +
        'are estimates made from chain data and published prices; they do not account for your circumstances.',
    },
    servers: [{ url: serverUrl }],
    paths: {
      '/tax/check.json': {
        get: {
          summary: 'Free estimate of this tax year’s emissions income and tax for one coldkey',
          description: CHECK_DESCRIPTION,
          operationId: 'checkColdkey',
          requestParams: { query: z.object({ coldkey: Coldkey }) },
          responses: {
            '200': jsonOk(
              'The estimate. Cached 24 hours per coldkey (never past the end of the UK tax year), shared by every ' +
                'gateway instance; `Cache-Control: no-store`.',
              TaxCheck,
            ),
            '400': errorResponse(
              'The coldkey is missing, given twice, or not a Bittensor address (47 or 48 base58 characters ' +
                'starting with `5`, SS58 prefix 42, valid checksum); `detail` says what is wrong. An input that ' +
                'looks like a secret (a seed phrase, a hex seed or key) gets a warning never to paste one, and is ' +
                'neither echoed, logged nor stored.',
            ),
            '429': limited,
            '503': errorResponse(
              'The chain node cannot be reached, or the yields and prices are not published yet; not cached. ' +
                'Retry after `Retry-After` seconds.',
              { 'Retry-After': wholeNumber('Seconds to wait before trying again.') },
            ),
          },
        },
      },
      '/tax/orders/{order_id}': {
        get: {
          summary: 'Order status',
          operationId: 'getOrder',
          requestParams: orderParams,
          responses: {
            '200': jsonOk(
              'The order. `paid_at`, `fulfilled_at`, `pack_url` and `pack_expires_at` are absent until they apply.',
              Order,
              privateNoStore,
            ),
            '404': unknownOrder,
            '429': limited,
          },
        },
      },
      '/tax/orders/{order_id}/pack': {
        get: {
          summary: 'Download the tax pack (zip of a PDF and CSV files)',
          operationId: 'getOrderPack',
          requestParams: orderParams,
          responses: {
            '200': {
              description:
                'The pack, as an attachment (`filename="sbm-tax-pack-<order_id>.zip"`, or `…-v<N>.zip` for a ' +
                'revised pack): a PDF summary and CSV files. Always the newest version built (`pack_version`): ' +
                'once the buyer’s records are added and the revision is built, the same link gives it.',
              headers: z.object({
                ...dispositionHeader,
                ...privateNoStore,
                'X-Pack-Version': wholeNumber('The version served: 1, or the newest built revision.'),
              }),
              content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
            },
            '404': unknownOrder,
            '409': errorResponse('The order has no pack yet (not paid, or paid and not yet fulfilled).'),
            '410': errorResponse(
              'The pack is gone: packs are kept 30 days after fulfilment (`pack_expires_at`), whether or not the ' +
                'purge has deleted it yet.',
            ),
            '429': limited,
            '503': errorResponse('The pack cannot be read right now.', retryAfter),
          },
        },
      },
      '/tax/orders/{order_id}/records': {
        post: {
          summary: 'Add your own records, addresses and opening pools: a revised pack at no charge',
          description: RECORDS_DESCRIPTION,
          operationId: 'addOrderRecords',
          requestParams: orderParams,
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: z.object({
                  records: z
                    .array(z.string().meta({ format: 'binary' }))
                    .optional()
                    .meta({ description: 'CSV files: Koinly’s or BittyTax’s format, or the plain one.' }),
                  addresses: z.string().optional().meta({
                    description: 'Your own addresses: `address,label` then one per line (text or a file).',
                  }),
                  opening: z.string().optional().meta({
                    description: 'Opening pools: last year’s `pools.csv`, or your own figures (a file).',
                  }),
                }),
              },
            },
          },
          responses: {
            '202': jsonOk(
              'Accepted: the order with its new revision (`pending`); `X-Pack-Version` is its version. The ' +
                'fulfilment job builds it; `pack_url` serves it once built.',
              Order,
              privateNoStore,
            ),
            '303': { description: 'A browser (Accept: text/html) is sent back to its order page.' },
            '400': errorResponse(
              'No file given, a field other than records, addresses and opening, or not a readable form.',
            ),
            '403': errorResponse('The form was posted from another site (`Origin` or `Referer`).'),
            '404': unknownOrder,
            '409': errorResponse('The order is not paid yet, or its pack expired: it takes no records.'),
            '413': errorResponse(
              'The body is larger than the upload limit: refused from `Content-Length` before it is read, or ' +
                'cut off at the limit while read. Nothing is kept.',
            ),
            '415': errorResponse('The body is not `multipart/form-data`.'),
            '422': jsonOk(
              'A file was refused: `detail`, and `problems` lists each (file, line, column, reason). Nothing of the ' +
                'upload is kept. A browser gets the same list as a page.',
              UploadProblems,
            ),
            '429': limited,
            '503': errorResponse('The order’s earlier files cannot be read right now.', retryAfter),
          },
        },
      },
      '/tax/checkout': {
        post: {
          summary: 'Start a hosted checkout for a tax pack',
          description: checkoutDescription(skus),
          operationId: 'createCheckout',
          requestBody: { content: { 'application/json': { schema: CheckoutRequest } } },
          responses: {
            '201': jsonOk('The order (`created`) and the hosted checkout page.', CheckoutSession),
            '400': errorResponse(
              'The body is not JSON, the SKU is not on sale, or a coldkey is missing, repeated or not a Bittensor ' +
                'address; `detail` says which (a pasted secret gets a warning and is never echoed).',
            ),
            '409': errorResponse(
              "The SKU's tax year is not on sale: the chain record the packs are built from (the published " +
                '`tax/calendar.json`) does not hold every UK day of it from 6 April (to 5 April, or to yesterday for the ' +
                'year under way). `detail` names the first missing UK day. No order is created and nothing is charged.',
            ),
            '413': errorResponse('The body is larger than 16 KiB.'),
            '429': limited,
            '502': errorResponse('The payment processor refused to open a checkout.'),
            '503': errorResponse(
              'The payment processor cannot be reached (the order stays `created`), or checkout is not enabled.',
              retryAfter,
            ),
          },
        },
      },
      '/tax/webhooks/stripe': {
        post: {
          summary: 'Payment processor webhook (the only writer of `paid`)',
          description: WEBHOOK_DESCRIPTION,
          operationId: 'stripeWebhook',
          requestParams: { header: z.object({ 'stripe-signature': z.string() }) },
          requestBody: { content: { 'application/json': { schema: z.looseObject({ type: z.string() }) } } },
          responses: {
            '200': jsonOk('Event accepted (also when already processed).', WebhookAck),
            '400': errorResponse(
              'Missing, wrong or stale signature, or not a Stripe event; nothing changes.',
            ),
            '413': errorResponse('The body is larger than 512 KiB.'),
            '503': errorResponse('The webhook is not configured (Stripe retries later).'),
          },
        },
      },
    },
  });
}
