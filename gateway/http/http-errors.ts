import type { ValidationError } from '../../pipeline/contract/errors.js';

/**
 * Errors a handler throws to answer with something other than 200. The router's catch stage turns
 * them into the one body shape of spec 7: `{"detail": "..."}`, or the 422 array.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export class ValidationFailure extends Error {
  override name = 'ValidationFailure';
  constructor(readonly detail: ValidationError[]) {
    super(detail.map((issue) => issue.msg).join('; '));
  }
}
