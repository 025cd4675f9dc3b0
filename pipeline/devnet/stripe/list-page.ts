import type Stripe from 'stripe';
import { StripeFakeError } from './checkout-session.js';
import type { FormValue } from './form-body.js';

/**
 * One page of a Stripe list call, as Stripe documents lists: newest first (by `created`, the later made
 * first within one second), `created` filtered by `gt`/`gte`/`lt`/`lte` (or an exact Unix time),
 * `limit` 1 to 100 (default 10), `starting_after` / `ending_before` an object id of the list (the page
 * after or before it), and `has_more` when more objects follow in that direction. The official client's
 * auto-pagination walks such pages with `starting_after` set to the last id of each.
 */
export function listPage<T extends { id: string; created: number }>(
  all: readonly T[],
  params: Record<string, FormValue>,
  url: string,
): Stripe.ApiList<T> {
  const created = params['created'];
  const inRange = (at: number): boolean => {
    if (created === undefined) return true;
    if (typeof created === 'string') return at === integer(created, 'created');
    if (Array.isArray(created)) throw invalid('created', 'Invalid created: must be an integer or a range');
    const bound = (name: string) =>
      created[name] === undefined ? null : integer(created[name], `created[${name}]`);
    const [gt, gte, lt, lte] = ['gt', 'gte', 'lt', 'lte'].map(bound);
    return (
      (gt === null || at > gt!) &&
      (gte === null || at >= gte!) &&
      (lt === null || at < lt!) &&
      (lte === null || at <= lte!)
    );
  };
  // Insertion order is creation order: reversed and stably sorted by `created`, newest first.
  const ordered = [...all].reverse().sort((a, b) => b.created - a.created);
  const matches = ordered.filter((item) => inRange(item.created));
  const limit = params['limit'] === undefined ? 10 : integer(params['limit'], 'limit');
  if (limit < 1 || limit > 100) throw invalid('limit', 'Invalid limit: must be between 1 and 100');
  const after = text(params['starting_after']);
  const before = text(params['ending_before']);
  if (after !== undefined && before !== undefined) {
    throw invalid(
      'starting_after',
      'You may only specify one of these parameters: ending_before, starting_after.',
    );
  }
  const indexOf = (id: string, param: string) => {
    const index = matches.findIndex((item) => item.id === id);
    if (index < 0) throw invalid(param, `No such object: '${id}'`, 'resource_missing');
    return index;
  };
  let data: T[];
  let hasMore: boolean;
  if (before !== undefined) {
    const end = indexOf(before, 'ending_before');
    const start = Math.max(0, end - limit);
    data = matches.slice(start, end);
    hasMore = start > 0;
  } else {
    const start = after === undefined ? 0 : indexOf(after, 'starting_after') + 1;
    data = matches.slice(start, start + limit);
    hasMore = start + limit < matches.length;
  }
  return { object: 'list', data, has_more: hasMore, url };
}

function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function integer(value: FormValue | undefined, param: string): number {
  const parsed = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed))
    throw invalid(param, `Invalid integer: ${String(value)}`, 'parameter_invalid_integer');
  return parsed;
}

function invalid(param: string, message: string, code = 'parameter_invalid'): StripeFakeError {
  return new StripeFakeError(400, 'invalid_request_error', message, code, param);
}
