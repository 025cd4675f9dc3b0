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
  /** Response headers the stages add (limits), merged into whatever the handler returned. */
  headers: Record<string, string>;
}

export type GatewayRequest = IRequest & { ctx: RequestContext };

export interface ConnectionInfo {
  ip?: string;
}
