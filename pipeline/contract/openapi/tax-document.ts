import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { CheckoutRequest, CheckoutSession, WebhookAck } from '../checkout.js';
import { Order } from '../order.js';
import { Coldkey, TaxCheck } from '../tax-check.js';
import { dispositionHeader, errorResponse, jsonOk, tooManyRequests } from './responses.js';

const orderToken = z.string().meta({
  description: 'Order token: hex HMAC-SHA256 of the order id (64 characters), from the checkout success URL.',
});
const orderParams = { path: z.object({ order_id: z.string() }), query: z.object({ t: orderToken }) };
const limited = tooManyRequests(
  'More than 20 requests per hour from one IP across the check and order endpoints.',
);
const unknownOrder = errorResponse('Unknown order, or wrong or missing token (the same answer for both).');

/** The tax interface's OpenAPI 3.1 document (spec 4.3), generated from the contract schemas. */
export function buildTaxDocument(serverUrl = '/') {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Subnet burn metrics: tax interface',
      version: '1.0.0',
      description:
        'A free estimate for one coldkey and paid UK tax packs. A computation tool, not tax advice.',
    },
    servers: [{ url: serverUrl }],
    paths: {
      '/tax/check.json': {
        get: {
          summary: 'Free estimate of this tax year’s emissions income and tax for one coldkey',
          operationId: 'checkColdkey',
          requestParams: { query: z.object({ coldkey: Coldkey }) },
          responses: {
            '200': jsonOk('The estimate (cached 24 hours per coldkey).', TaxCheck),
            '400': errorResponse('The coldkey is not 47 or 48 base58 characters starting with `5`.'),
            '429': limited,
          },
        },
      },
      '/tax/orders/{order_id}': {
        get: {
          summary: 'Order status',
          operationId: 'getOrder',
          requestParams: orderParams,
          responses: { '200': jsonOk('The order.', Order), '404': unknownOrder, '429': limited },
        },
      },
      '/tax/orders/{order_id}/pack': {
        get: {
          summary: 'Download the tax pack (zip of a PDF and CSV files)',
          operationId: 'getOrderPack',
          requestParams: orderParams,
          responses: {
            '200': {
              description: 'The pack, as an attachment.',
              headers: z.object(dispositionHeader),
              content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } },
            },
            '404': unknownOrder,
            '409': errorResponse('The order has no pack yet (not paid, or paid and not yet fulfilled).'),
            '410': errorResponse('The pack was purged: packs are kept 30 days after fulfilment.'),
            '429': limited,
          },
        },
      },
      '/tax/checkout': {
        post: {
          summary: 'Start a hosted checkout for a tax pack',
          operationId: 'createCheckout',
          requestBody: { content: { 'application/json': { schema: CheckoutRequest } } },
          responses: {
            '200': jsonOk('The order and the hosted checkout page.', CheckoutSession),
            '400': errorResponse('Invalid request body.'),
            '429': limited,
          },
        },
      },
      '/tax/webhooks/stripe': {
        post: {
          summary: 'Payment processor webhook (the only writer of `paid`)',
          operationId: 'stripeWebhook',
          requestParams: { header: z.object({ 'stripe-signature': z.string() }) },
          requestBody: { content: { 'application/json': { schema: z.looseObject({ type: z.string() }) } } },
          responses: {
            '200': jsonOk('Event accepted (also when already processed).', WebhookAck),
            '400': errorResponse('Missing or invalid signature, or malformed event.'),
          },
        },
      },
    },
  });
}
