import type { ValidationError } from '../../pipeline/contract/errors.js';

/**
 * An error that is an answer, not a fault: it is turned into a response and never logged, so it
 * records no stack. Capturing one was most of the cost of a refusal (a 429 or 401 under a flood
 * spent more time building its stack trace than answering).
 */
class AnswerError extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/**
 * Errors a handler throws to answer with something other than 200. The router's catch stage turns them into
 * the one error body shape: `{"detail": "..."}`, or the 422 array (docs/api.md, Errors).
 */
export class HttpError extends AnswerError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export class ValidationFailure extends AnswerError {
  override name = 'ValidationFailure';
  constructor(readonly detail: ValidationError[]) {
    super(detail.map((issue) => issue.msg).join('; '));
  }
}
