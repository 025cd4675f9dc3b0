import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import { EmissionEvents, EmissionHistory, EmissionsSnapshot } from '../emissions.js';
import { SubnetDetail } from '../subnet-detail.js';
import { SubnetHistory } from '../subnet-history.js';
import { SubnetList } from '../subnet-list.js';
import { ApiUsage } from '../usage.js';
import {
  DEFAULT_EMISSION_DAYS,
  DEFAULT_HISTORY_CSV_DAYS,
  DEFAULT_HISTORY_DAYS,
  EMISSION_EVENTS_PAGE_SIZE,
  EMISSION_WINDOWS,
  HISTORY_WINDOWS,
} from '../windows.js';
import {
  authenticateHeader,
  cachingHeaders,
  errorResponse,
  jsonOk,
  rateLimitHeaders,
  tooManyRequests,
  validationResponse,
  wholeNumber,
} from './responses.js';

const netuid = z.int().min(0).max(65535).meta({ description: 'Subnet number; a non-integer gives 422.' });
const windowParam = (values: readonly number[], fallback: number, description: string) =>
  z
    .int()
    .optional()
    .meta({
      description,
      // An enum of integers with a default; zod's safe-integer bounds add nothing next to the enum.
      override: (context: { jsonSchema: Record<string, unknown> }) => {
        delete context.jsonSchema['minimum'];
        delete context.jsonSchema['maximum'];
        Object.assign(context.jsonSchema, { enum: [...values], default: fallback });
      },
    });

const historyDays = (fallback: number) =>
  windowParam(
    HISTORY_WINDOWS,
    fallback,
    'Window length in days. The spec’s machine-readable description lists 7, 90 and 365; its usage ' +
      'description adds 30, public like 7. We accept 30 on both the JSON and the CSV history. ' +
      '7 and 30 are public on the JSON history; 90, 365 and every CSV window need a key or session.',
  );

const emissionDays = windowParam(
  EMISSION_WINDOWS,
  DEFAULT_EMISSION_DAYS,
  'Window length in days: 7 is public, 90 and 365 need a key or session.',
);

type Security = Record<string, string[]>[];
const anyAccess: Security = [{}, { bearer: [] }, { session: [] }];
const paidAccess: Security = [{ bearer: [] }, { session: [] }];
const okHeaders = { ...cachingHeaders, ...rateLimitHeaders };

const common = {
  '401': errorResponse(
    'An API key or session is invalid, revoked or expired, or the window needs one.',
    authenticateHeader,
  ),
  '422': validationResponse,
  '429': tooManyRequests('The billing-period allowance (keys) or the public per-IP limit is exhausted.'),
};
const notFound = { '404': errorResponse('No subnet with that netuid (`{"detail": "Subnet not found"}`).') };

function get(
  summary: string,
  operation: Omit<ZodOpenApiOperationObject, 'summary' | 'responses'> & {
    responses: ZodOpenApiOperationObject['responses'];
  },
): { get: ZodOpenApiOperationObject } {
  return { get: { summary, ...operation } };
}

/** The data interface's OpenAPI 3.1 document, generated from the contract schemas (burns and emissions). */
export function buildDataDocument(serverUrl = '/') {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Subnet burn metrics: data interface',
      version: '1.0.0',
      description:
        'Read-only subnet burn summaries, daily history and the emissions watch. Data is collected once a day; ' +
        'poll no more often than every five minutes.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key: `Authorization: Bearer sbm_live_…`.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_explore',
          description: 'Subscriber browser session.',
        },
      },
    },
    paths: {
      '/api/v1/subnets': get('Burn summary of every registered subnet', {
        operationId: 'listSubnets',
        security: anyAccess,
        responses: {
          '200': jsonOk('The subnet list.', SubnetList, okHeaders),
          '304': { description: 'Not modified.' },
          '401': common['401'],
          '429': common['429'],
        },
      }),
      '/api/v1/subnets/{netuid}': get('Burn summary of one subnet', {
        operationId: 'getSubnet',
        security: anyAccess,
        requestParams: { path: z.object({ netuid }) },
        responses: { '200': jsonOk('The subnet.', SubnetDetail, okHeaders), ...notFound, ...common },
      }),
      '/api/v1/subnets/{netuid}/history': get('Daily burn history of one subnet', {
        operationId: 'getSubnetHistory',
        security: anyAccess,
        requestParams: {
          path: z.object({ netuid }),
          query: z.object({ days: historyDays(DEFAULT_HISTORY_DAYS) }),
        },
        responses: {
          '200': jsonOk('The history, ascending.', SubnetHistory, okHeaders),
          ...notFound,
          ...common,
        },
      }),
      '/api/v1/subnets/{netuid}/history.csv': get('Daily burn history of one subnet as CSV', {
        operationId: 'getSubnetHistoryCsv',
        security: paidAccess,
        requestParams: {
          path: z.object({ netuid }),
          query: z.object({ days: historyDays(DEFAULT_HISTORY_CSV_DAYS) }),
        },
        responses: {
          '200': {
            description:
              'RFC 4180 CSV, UTF-8, header `date,alpha,burns,tao,unpriced_burns,partial_day`; the same rows and ' +
              'values as the JSON history, an empty field for null.',
            headers: z.object(okHeaders),
            content: { 'text/csv': { schema: z.string() }, 'text/plain': { schema: z.string() } },
          },
          ...notFound,
          ...common,
        },
      }),
      '/api/v1/emissions': get('Finalized emission status of every subnet', {
        operationId: 'getEmissions',
        security: anyAccess,
        responses: {
          '200': jsonOk('Status at the latest sample.', EmissionsSnapshot, okHeaders),
          '401': common['401'],
          '429': common['429'],
        },
      }),
      '/api/v1/emissions/events': get('Verified emission suspensions and restorations', {
        operationId: 'listEmissionEvents',
        security: anyAccess,
        requestParams: {
          query: z.object({
            netuid: netuid.optional(),
            days: emissionDays,
            before_block: wholeNumber('')
              .min(0)
              .optional()
              .meta({
                description:
                  `Only events whose to_block is before this block; pass the previous page's next_before_block. ` +
                  `Pages hold up to ${EMISSION_EVENTS_PAGE_SIZE} events, newest first, but never split events sharing ` +
                  'a to_block (a page may end early, or hold a larger group whole).',
              }),
          }),
        },
        responses: {
          '200': jsonOk('One page of events; check `coverage`.', EmissionEvents, okHeaders),
          ...notFound,
          ...common,
        },
      }),
      '/api/v1/emissions/{netuid}/history': get('Sampled emission flows of one subnet', {
        operationId: 'getEmissionHistory',
        security: anyAccess,
        requestParams: { path: z.object({ netuid }), query: z.object({ days: emissionDays }) },
        responses: {
          '200': jsonOk('Samples; absent periods are gaps.', EmissionHistory, okHeaders),
          ...notFound,
          ...common,
        },
      }),
      '/api/v1/usage': get("The calling key's usage in the billing period (not counted)", {
        operationId: 'getUsage',
        description:
          'An addition to the interface: read with the API key itself; never counts against ' +
          'the allowance. The `X-RateLimit-*` headers report the same standing.',
        security: [{ bearer: [] }],
        responses: {
          '200': jsonOk('The standing of the period.', ApiUsage, rateLimitHeaders),
          '401': errorResponse('No API key, or an invalid, revoked or expired one.', authenticateHeader),
          '402': errorResponse(
            "The plan's paid period has ended unpaid (or after a cancellation); pay at /account.",
          ),
        },
      }),
    },
  });
}
