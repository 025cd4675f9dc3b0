import { type AccessNeed, checkAccess } from './auth/access.js';
import type { AllowanceMeter, AllowanceTicket } from './auth/allowance.js';
import type { AuthDeps } from './auth/auth-deps.js';
import { limitHeaders } from './auth/limit-headers.js';
import { type Credential, credentialNow, resolveCredential } from './auth/resolve-credential.js';
import type { WindowLimiter } from './auth/window-limiter.js';
import { HttpError } from './http/http-errors.js';
import { type GatewayRequest, requestTime } from './request-context.js';

type KeyCredential = Extract<Credential, { kind: 'key' }>;

export interface AccessGuard {
  /**
   * Admits a request to a resource that needs `need`, or throws 401/429. A keyed request reserves one request
   * of its monthly allowance here (settled in the router's finally stage); a public request counts against
   * its IP's per-minute limit; a subscriber session is not metered (the allowance is the API plan's). A
   * request that can be decided without waiting (see `admitCredential`) is admitted, or refused by a throw,
   * without a promise: undefined means admitted now.
   */
  admit(request: GatewayRequest, need: AccessNeed, what: string): Promise<void> | undefined;
}

export function createAccessGuard(deps: {
  auth: AuthDeps;
  allowance: AllowanceMeter;
  publicLimiter: WindowLimiter;
}): AccessGuard {
  return {
    admit(request, need, what) {
      const now = requestTime(request, deps.auth.now);
      const credential = credentialNow(deps.auth, request.ctx.requestHeaders, now);
      if (credential) return admitCredential(request, credential, need, what);
      return resolveCredential(deps.auth, request.ctx.requestHeaders, now).then((resolved) =>
        admitCredential(request, resolved, need, what),
      );
    },
  };

  /**
   * Records who is calling and throws 401/402 when that credential may not have `need`; then meters
   * it. Undefined when done without waiting: a public caller with the per-IP limit off, or a key whose
   * account has allowance left in a lease this instance holds.
   */
  function admitCredential(
    request: GatewayRequest,
    credential: Credential,
    need: AccessNeed,
    what: string,
  ): Promise<void> | undefined {
    request.ctx.credential = credential;
    const denied = checkAccess(credential, need, what);
    if (denied) throw new HttpError(denied.status, denied.detail, denied.headers);
    if (credential.kind === 'key') {
      const leased = deps.allowance.reserveNow(credential.accountId, credential.period);
      if (leased) return holdTicket(request, credential, leased);
      return deps.allowance
        .reserve(credential.accountId, credential.period)
        .then((ticket) => holdTicket(request, credential, ticket));
    }
    if (credential.kind === 'public' && deps.publicLimiter.limit > 0) return limitPublic(request);
    return undefined;
  }

  /** Keeps the reservation for the finally stage, with its headers; throws 429 when refused. */
  function holdTicket(
    request: GatewayRequest,
    credential: KeyCredential,
    ticket: AllowanceTicket,
  ): undefined {
    const now = requestTime(request, deps.auth.now);
    request.ctx.ticket = ticket;
    request.ctx.responseHeaders = limitHeaders(ticket.decision, now);
    if (!ticket.decision.allowed) {
      throw new HttpError(
        429,
        `The monthly allowance of ${deps.allowance.limit} requests is used up; it resets at ` +
          `${credential.period.end.toISOString()}.`,
        limitHeaders(ticket.decision, now),
      );
    }
    return undefined;
  }

  async function limitPublic(request: GatewayRequest): Promise<void> {
    const decision = await deps.publicLimiter.hit(request.ctx.ip);
    if (decision && !decision.allowed) {
      throw new HttpError(
        429,
        `More than ${decision.limit} requests a minute from this address without an API key; retry shortly.`,
        limitHeaders(decision, requestTime(request, deps.auth.now)),
      );
    }
  }
}
