import { type AccessNeed, checkAccess } from './auth/access.js';
import type { AllowanceMeter } from './auth/allowance.js';
import type { AuthDeps } from './auth/auth-deps.js';
import { limitHeaders } from './auth/limit-headers.js';
import { type Credential, publicCallerNow, resolveCredential } from './auth/resolve-credential.js';
import type { WindowLimiter } from './auth/window-limiter.js';
import { HttpError } from './http/http-errors.js';
import type { GatewayRequest } from './request-context.js';

export interface AccessGuard {
  /**
   * Admits a request to a resource that needs `need`, or throws 401/429. A keyed request reserves one
   * request of its monthly allowance here (settled in the router's finally stage); a public request
   * counts against its IP's per-minute limit; a subscriber session is not metered (spec 8).
   * A public caller with the per-IP limit off is admitted (or refused, by a throw) without a promise:
   * undefined means admitted now.
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
      const credential = publicCallerNow(request.ctx.requestHeaders);
      if (credential && deps.publicLimiter.limit <= 0) {
        admitCredential(request, credential, need, what);
        return undefined;
      }
      return admitAfterChecks(request, need, what);
    },
  };

  async function admitAfterChecks(request: GatewayRequest, need: AccessNeed, what: string): Promise<void> {
    const credential = await resolveCredential(deps.auth, request.ctx.requestHeaders);
    admitCredential(request, credential, need, what);
    if (credential.kind === 'key') {
      const now = deps.auth.now();
      const ticket = await deps.allowance.reserve(credential.accountId, credential.period);
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
    } else if (credential.kind === 'public' && deps.publicLimiter.limit > 0) {
      const decision = await deps.publicLimiter.hit(request.ctx.ip);
      if (decision && !decision.allowed) {
        throw new HttpError(
          429,
          `More than ${decision.limit} requests a minute from this address without an API key; retry shortly.`,
          limitHeaders(decision, deps.auth.now()),
        );
      }
    }
  }
}

/** Records who is calling and throws 401/402 when that credential may not have `need`. */
function admitCredential(
  request: GatewayRequest,
  credential: Credential,
  need: AccessNeed,
  what: string,
): void {
  request.ctx.credential = credential;
  const denied = checkAccess(credential, need, what);
  if (denied) throw new HttpError(denied.status, denied.detail, denied.headers);
}
