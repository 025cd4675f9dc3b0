import type { IRequest } from 'itty-router';
import type { AllowanceTicket } from './auth/allowance.js';
import type { Credential, HeaderSource } from './auth/resolve-credential.js';

/** What the stages of one request share: set by the app's `fetch`, read by handlers and by `finally`. */
export interface RequestContext {
  startedAt: number;
  /** The request's clock reading, taken at its first use (`requestTime`). */
  at: Date | null;
  /**
   * The client's address as the per-IP limits count it: the socket's peer, or behind trusted proxies
   * the address they forwarded (`SBM_TRUST_PROXY`, see `auth/client-ip.ts`).
   */
  ip: string;
  /** The request's headers, read through the cheapest reader the server offers (see `ConnectionInfo`). */
  requestHeaders: HeaderSource;
  credential: Credential | null;
  /** The monthly-allowance reservation of a keyed request, settled once the status is known. */
  ticket: AllowanceTicket | null;
  /**
   * Headers decided before the handler ran (the allowance headers of a granted reservation), which
   * handlers put into the response they build. Building them in, rather than setting them afterwards,
   * keeps @hono/node-server's fast path: touching a built response's headers materialises them.
   */
  responseHeaders: Record<string, string>;
  /** Whether the response was built with `responseHeaders` in it. */
  headersApplied: boolean;
}

export type GatewayRequest = IRequest & { ctx: RequestContext };

/** `responseHeaders` before anything is decided: one shared object, replaced (never changed) when headers are. */
export const NO_RESPONSE_HEADERS: Record<string, string> = Object.freeze({});

/**
 * The time for every step of one request: the key's validity, its billing period, the allowance
 * headers, the snapshot's freshness and the day its use is counted on all read one clock reading.
 */
export function requestTime(request: GatewayRequest, clock: () => Date): Date {
  request.ctx.at ??= clock();
  return request.ctx.at;
}

/** What the server knows of a request beyond the fetch `Request`. */
export interface ConnectionInfo {
  /** The socket's peer address; the app derives the client's address from it (`RequestContext.ip`). */
  ip?: string;
  /**
   * The request's headers as the server already parsed them. On Node, reading `request.headers`
   * makes @hono/node-server build a fetch `Headers` object for every request; the handful of
   * headers the gateway reads are cheaper straight from the parsed message.
   */
  headers?: HeaderSource;
}
