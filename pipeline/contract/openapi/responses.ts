import { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ErrorBody, HTTPValidationError } from '../errors.js';

/** Response pieces shared by the routes of both documents, so each is described once. */
const text = (description: string) => z.string().meta({ description });
/** An integer without zod's safe-integer bounds, which say nothing to a reader of the document. */
export const wholeNumber = (description: string) =>
  z.number().int().meta({ description, override: dropSafeIntegerBounds });
const whole = wholeNumber;

export function dropSafeIntegerBounds({
  jsonSchema,
}: {
  jsonSchema: { minimum?: unknown; maximum?: unknown };
}) {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

export const rateLimitHeaders = {
  'X-RateLimit-Limit': whole(
    'The billing-period request allowance (authenticated requests only).',
  ).optional(),
  'X-RateLimit-Remaining': whole('Successful requests remaining in the period.').optional(),
  'X-RateLimit-Reset': whole('Reset time of the allowance as a UTC Unix timestamp.').optional(),
  RateLimit: text('IETF draft form of the same: `limit=…, remaining=…, reset=<seconds>`.').optional(),
  'RateLimit-Policy': text('IETF draft policy: `<limit>;w=<period seconds>`.').optional(),
};

export const cachingHeaders = {
  ETag: text('Strong validator: the content hash of the published object.'),
  'Cache-Control': text('Snapshots change at most every five minutes; poll no more often.'),
};

export const authenticateHeader = { 'WWW-Authenticate': text('Always `Bearer`.') };
export const dispositionHeader = { 'Content-Disposition': text('`attachment; filename=…`') };

type HeaderShape = Record<string, z.ZodType>;

export function errorResponse(description: string, headers: HeaderShape = {}): ZodOpenApiResponseObject {
  return { description, headers: z.object(headers), content: { 'application/json': { schema: ErrorBody } } };
}

export const validationResponse: ZodOpenApiResponseObject = {
  description: 'Invalid parameter (FastAPI-style body).',
  content: { 'application/json': { schema: HTTPValidationError } },
};

export const tooManyRequests = (description: string) =>
  errorResponse(description, {
    'Retry-After': whole('Seconds until a request may succeed again.'),
    'X-RateLimit-Reset': whole('Reset time as a UTC Unix timestamp.'),
  });

export function jsonOk(
  description: string,
  schema: z.ZodType,
  headers: HeaderShape = {},
): ZodOpenApiResponseObject {
  return { description, headers: z.object(headers), content: { 'application/json': { schema } } };
}
