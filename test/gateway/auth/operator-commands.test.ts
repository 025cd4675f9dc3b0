/**
 * The operator CLI's account, key and session commands, run in-process against a SQLite file: the
 * same builders `gateway/cli.ts` mounts, with output captured instead of printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyApiKey } from '../../../gateway/auth/api-keys.js';
import { verifySession } from '../../../gateway/auth/sessions.js';
import { accountsCommand } from '../../../gateway/commands/accounts.js';
import { keysCommand } from '../../../gateway/commands/keys.js';
import { sessionsCommand } from '../../../gateway/commands/sessions.js';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { operatorCli } from './operator-cli.js';

describe('operator commands', () => {
  let dir: string;
  let config: GatewayConfig;
  const clock = new Date('2025-03-15T10:00:00Z');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-cli-'));
    config = loadGatewayConfig({ SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}` });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = operatorCli(
    (io) => [accountsCommand(config, io), keysCommand(config, io), sessionsCommand(config, io)],
    () => clock,
  );

  const json = async <T>(...args: string[]) => JSON.parse(await run(...args, '--json')) as T;

  it('creates an API account, three keys, refuses a fourth, lists and revokes', async () => {
    const account = await json<{ id: string; plan: string; periodEnd: string }>(
      'accounts',
      'create',
      '--plan',
      'api',
    );
    expect(account).toMatchObject({ plan: 'api', periodEnd: '2025-04-15T10:00:00.000Z' });
    const keys = [];
    for (let i = 0; i < 3; i++)
      keys.push(
        await json<{ id: string; key: string; prefix: string }>('keys', 'create', '--account', account.id),
      );
    await expect(run('keys', 'create', '--account', account.id)).rejects.toThrow(/already has 3 active keys/);

    const state = await openGatewayState(config.stateUrl);
    try {
      expect((await verifyApiKey({ state, now: () => clock }, keys[0]!.key)).ok).toBe(true);
      const listed = await json<Array<{ id: string; status: string; key?: string }>>(
        'keys',
        'list',
        '--account',
        account.id,
      );
      expect(listed.map((k) => k.status)).toEqual(['active', 'active', 'active']);
      expect(listed.some((k) => 'key' in k)).toBe(false);
      const text = await run('keys', 'revoke', keys[0]!.id);
      expect(text).toContain(`revoked key ${keys[0]!.id}`);
      expect(await verifyApiKey({ state, now: () => clock }, keys[0]!.key)).toMatchObject({
        ok: false,
        reason: 'revoked',
      });
      expect(await run('keys', 'list', '--account', account.id)).toMatch(/revoked 2025-03-15T10:00:00.000Z/);
    } finally {
      await state.close();
    }
  });

  it('prints a key once in text mode, on its own line', async () => {
    const account = await json<{ id: string }>('accounts', 'create', '--plan', 'api');
    const lines = (await run('keys', 'create', '--account', account.id)).trim().split('\n');
    expect(lines[0]).toMatch(/shown only this once/);
    expect(lines[1]).toMatch(/^sbm_live_[1-9A-HJ-NP-Za-km-z]{44}[0-9A-Za-z]{6}$/);
  });

  it('creates a subscriber session and prints the cookie value', async () => {
    const account = await json<{ id: string }>('accounts', 'create', '--plan', 'subscriber');
    const session = await json<{ id: string; cookie: string; value: string; expiresAt: string }>(
      'sessions',
      'create',
      '--account',
      account.id,
    );
    expect(session).toMatchObject({ cookie: 'svc_explore', expiresAt: '2025-04-14T10:00:00.000Z' });
    const state = await openGatewayState(config.stateUrl);
    try {
      expect((await verifySession({ state, now: () => clock }, session.value)).ok).toBe(true);
    } finally {
      await state.close();
    }
    await expect(run('sessions', 'create', '--account', 'acc_missing')).rejects.toThrow(
      'unknown account acc_missing',
    );
  });

  it('shows, lists and cancels accounts, and names unknown ones', async () => {
    const account = await json<{ id: string }>('accounts', 'create', '--plan', 'api');
    expect(await json('accounts', 'show', account.id)).toMatchObject({
      usage: { used: 0, limit: 10_000, remaining: 10_000 },
      activeKeys: 0,
    });
    expect((await json<Array<{ id: string }>>('accounts', 'list')).map((a) => a.id)).toContain(account.id);
    expect(await run('accounts', 'cancel', account.id)).toContain('access until 2025-04-15T10:00:00.000Z');
    await expect(run('keys', 'list', '--account', 'acc_nobody')).rejects.toThrow(
      'unknown account acc_nobody',
    );
    await expect(run('accounts', 'create', '--plan', 'gold')).rejects.toThrow();
  });
});
