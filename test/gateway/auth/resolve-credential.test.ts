import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccess } from '../../../gateway/auth/access.js';
import { createAccount } from '../../../gateway/auth/accounts.js';
import { createApiKey, revokeApiKey } from '../../../gateway/auth/api-keys.js';
import type { AuthDeps } from '../../../gateway/auth/auth-deps.js';
import { PlanMismatchError } from '../../../gateway/auth/auth-errors.js';
import { readCookie } from '../../../gateway/auth/cookie-header.js';
import { resolveCredential } from '../../../gateway/auth/resolve-credential.js';
import { createSession, revokeSession } from '../../../gateway/auth/sessions.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';

describe('resolveCredential and checkAccess', () => {
  let dir: string;
  let state: GatewayState;
  let clock = new Date('2025-03-15T10:00:00Z');
  const deps = (): AuthDeps => ({ state, now: () => clock });
  const resolve = (headers: Record<string, string>) => resolveCredential(deps(), new Headers(headers));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-credential-'));
    state = await openGatewayState(`sqlite:${join(dir, 'state.sqlite')}`);
  });

  afterAll(async () => {
    await state?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('treats a request without credentials as public', async () => {
    expect(await resolve({})).toEqual({ kind: 'public' });
    expect(await resolve({ cookie: 'other=1' })).toEqual({ kind: 'public' });
  });

  it('resolves a bearer key to its account, plan and current billing period', async () => {
    const account = await createAccount(deps(), 'api');
    const { key, record } = await createApiKey(deps(), account.id);
    clock = new Date('2025-04-20T00:00:00Z');
    expect(await resolve({ authorization: `Bearer ${key}` })).toEqual({
      kind: 'key',
      accountId: account.id,
      keyId: record.id,
      plan: 'api',
      period: { start: new Date('2025-04-15T10:00:00Z'), end: new Date('2025-05-15T10:00:00Z') },
    });
    expect((await resolve({ authorization: `bearer   ${key}` })).kind).toBe('key');
    clock = new Date('2025-03-15T10:00:00Z');
  });

  it('marks bad, revoked and wrongly sent keys invalid', async () => {
    const account = await createAccount(deps(), 'api');
    const { key, record } = await createApiKey(deps(), account.id);
    expect(await resolve({ authorization: `Basic ${key}` })).toMatchObject({
      kind: 'invalid',
      reason: 'bad-scheme',
    });
    expect(await resolve({ authorization: 'Bearer nope' })).toMatchObject({
      kind: 'invalid',
      reason: 'malformed',
    });
    await revokeApiKey(deps(), record.id);
    expect(await resolve({ authorization: `Bearer ${key}` })).toMatchObject({
      kind: 'invalid',
      reason: 'revoked',
    });
  });

  it('resolves a subscriber session cookie, and ignores stale ones', async () => {
    const account = await createAccount(deps(), 'subscriber');
    const { cookieValue, record } = await createSession(deps(), account.id, { days: 1 });
    const cookie = { cookie: `theme=dark; svc_explore=${cookieValue}` };
    expect(await resolve(cookie)).toEqual({
      kind: 'session',
      accountId: account.id,
      sessionId: record.id,
      plan: 'subscriber',
    });
    expect(await resolve({ cookie: 'svc_explore=not-a-session' })).toEqual({ kind: 'public' });
    clock = new Date('2025-03-16T10:00:00Z');
    expect(await resolve(cookie)).toEqual({ kind: 'public' });
    clock = new Date('2025-03-15T10:00:00Z');
    await revokeSession(deps(), record.id);
    expect(await resolve(cookie)).toEqual({ kind: 'public' });
  });

  it('gives sessions to subscriber accounts only', async () => {
    const account = await createAccount(deps(), 'api');
    await expect(createSession(deps(), account.id)).rejects.toBeInstanceOf(PlanMismatchError);
  });

  it('prefers the key when both a key and a session are sent', async () => {
    const subscriber = await createAccount(deps(), 'subscriber');
    const { cookieValue } = await createSession(deps(), subscriber.id);
    const api = await createAccount(deps(), 'api');
    const { key } = await createApiKey(deps(), api.id);
    const both = await resolve({ authorization: `Bearer ${key}`, cookie: `svc_explore=${cookieValue}` });
    expect(both).toMatchObject({ kind: 'key', accountId: api.id });
  });

  it('answers 401 with WWW-Authenticate: Bearer and a detail naming the access needed', () => {
    expect(checkAccess({ kind: 'public' }, 'public', 'Subnet list')).toBeNull();
    const denied = checkAccess({ kind: 'public' }, 'paid', 'CSV export');
    expect(denied?.status).toBe(401);
    expect(denied?.headers['WWW-Authenticate']).toBe('Bearer realm="sbm"');
    expect(denied?.detail).toMatch(
      /^CSV export needs paid access: .*Authorization: Bearer sbm_live_.*svc_explore/,
    );
    const session = { kind: 'session', accountId: 'a', sessionId: 's', plan: 'subscriber' } as const;
    expect(checkAccess(session, 'paid', 'CSV export')).toBeNull();
    const invalid = checkAccess(
      { kind: 'invalid', reason: 'revoked', detail: 'the API key has been revoked' },
      'public',
      'x',
    );
    expect(invalid?.status).toBe(401);
    expect(invalid?.headers['WWW-Authenticate']).toMatch(/^Bearer realm="sbm", error="invalid_token"/);
    expect(invalid?.detail).toBe('Invalid credential: the API key has been revoked.');
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; svc_explore=abc; b=2', 'svc_explore')).toBe('abc');
    expect(readCookie('svc_explore="q"', 'svc_explore')).toBe('q');
    expect(readCookie('xsvc_explore=abc', 'svc_explore')).toBeUndefined();
    expect(readCookie(null, 'svc_explore')).toBeUndefined();
  });
});
