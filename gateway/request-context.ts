import type { IRequest } from 'itty-router';
import type { AllowanceTicket } from './auth/allowance.js';
import type { Credential } from './auth/resolve-credential.js';

/** What the stages of one request share: set in `before`, read by handlers and by `finally`. */
export interface RequestContext {
  startedAt: number;
  ip: string;
  credential: Credential | null;
  /** The monthly-allowance reservation of a keyed request, settled once the status is known. */
  ticket: AllowanceTicket | null;
  /**
   * Headers decided before the handler ran (the allowance headers of a granted reservation), which
   * handlers put into the response they build. Building them in, rather than setting them afterwards,
   * keeps @hono/node-server's fast path: touching a built response's headers materialises them.
   */
  headers: Record<string, string>;
  /** Whether the response was built with `headers` in it. */
  headersApplied: boolean;
}

export type GatewayRequest = IRequest & { ctx: RequestContext };

export interface ConnectionInfo {
  ip?: string;
}
