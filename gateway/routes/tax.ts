import type { RouterType } from 'itty-router';
import { parseColdkeyQuery } from '../../pipeline/tax/products/parse-coldkey.js';
import { limitHeaders } from '../auth/limit-headers.js';
import { createTaxLimiter } from '../auth/tax-limiter.js';
import { HttpError } from '../http/http-errors.js';
import type { GatewayRequest } from '../request-context.js';
import { PRIVATE_NO_STORE } from '../snapshots/cache-policy.js';
import { type CheckAnswerDeps, createCheckAnswer } from './tax-check-answer.js';

/**
 * The tax check, `GET /tax/check.json` (the order routes are in orders.ts and stripe-webhook.ts). Every route
 * counts against the per-IP tax limit first, before its input is even parsed (a flood of malformed requests
 * is still a flood), then answers.
 *
 * Privacy: the request log records the route pattern (`/tax/check.json`), never the query, so no
 * coldkey and no pasted secret reaches it; nothing here logs the input, and no caller's address is
 * stored beside a coldkey (the limiter keeps only a salted hash of the address, the cache only the
 * coldkey's answer).
 */
export function taxRoutes(router: RouterType<GatewayRequest>, deps: CheckAnswerDeps): void {
  const limiter = createTaxLimiter({ state: deps.state, now: deps.now });
  const answerCheck = createCheckAnswer(deps);

  /** Counts the request; the limit headers it returns go on every answer the route gives. */
  const admit = async (request: GatewayRequest): Promise<Record<string, string>> => {
    const result = await limiter.hit(request.ctx.ip);
    if (!result.allowed) throw result.error;
    return limitHeaders(result.decision, deps.now());
  };
  const withHeaders = async <T>(headers: Record<string, string>, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError)
        throw new HttpError(error.status, error.detail, { ...headers, ...error.headers });
      throw error;
    }
  };

  router.get('/tax/check.json', async (request) => {
    const headers = await admit(request);
    return withHeaders(headers, async () => {
      const parsed = parseColdkeyQuery(new URL(request.url).searchParams);
      if (!parsed.ok) throw new HttpError(400, parsed.message);
      const body = await answerCheck(parsed.address);
      return new Response(body, {
        headers: {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          // The answer names the coldkey: no shared cache (or its logs) should keep it.
          'cache-control': PRIVATE_NO_STORE,
        },
      });
    });
  });
}
