/**
 * Two real gateway processes (`sbm-gateway serve`) on one PostgreSQL database, with allowance leases
 * as configured by default: 64 concurrent keyed requests to each against an account 100 requests short
 * of its cap (exactly 100 succeed); 64 clients on each spending a whole allowance from zero (exactly
 * 10,000 succeed, then only 429); a key revoked is refused on its next request on either instance.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount } from '../../gateway/auth/accounts.js';
import { createApiKey } from '../../gateway/auth/api-keys.js';
import { billingPeriod } from '../../gateway/auth/billing-period.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { type RunningChild, startChild } from '../../pipeline/demo/child-process.js';
import { startTestPostgres, type TestPostgres } from '../services/postgres.js';
import { publishedSandbox } from '../support/published-sandbox.js';

const ALLOWANCE = 10_000;
let postgres: TestPostgres;
const gateways: { child: RunningChild; url: string }[] = [];

beforeAll(async () => {
  const world = await publishedSandbox();
  postgres = await startTestPostgres();
  const env = {
    ...process.env,
    SBM_STATE_URL: postgres.url,
    SBM_STORE_URL: `file:${world.storeDir}`,
    SBM_PUBLIC_LIMIT_PER_MIN: '0',
    SBM_MONTHLY_ALLOWANCE: String(ALLOWANCE),
    SBM_GATEWAY_INSTANCES: '2',
  };
  for (let i = 0; i < 2; i++) {
    const started = await startChild(
      process.execPath,
      ['--import', 'tsx', 'gateway/cli.ts', 'serve', '--port', '0'],
      { env, ready: /listening on (\S+)/, label: `gateway ${i}`, timeoutMs: 60_000 },
    );
    gateways.push({ child: started.child, url: started.match[1]! });
  }
}, 600_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.child.stop()));
  await postgres?.stop();
});

it('grants exactly the 100 remaining requests across both processes; the rest get 429', async () => {
  const state = await openGatewayState(postgres.url);
  const now = () => new Date();
  const account = await createAccount({ state, now }, 'api');
  const { key } = await createApiKey({ state, now }, account.id);
  const period = billingPeriod(account.periodAnchor, new Date());
  await state.setUsage(account.id, period.start, ALLOWANCE - 100);

  const requests = gateways.flatMap((gateway) =>
    Array.from({ length: 64 }, () =>
      fetch(`${gateway.url}/api/v1/subnets/1/history?days=90`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    ),
  );
  const responses = await Promise.all(requests);
  const statuses = responses.map((response) => response.status);
  const remaining = responses.map((response) => Number(response.headers.get('x-ratelimit-remaining')));
  await Promise.all(responses.map((response) => response.arrayBuffer()));

  expect(statuses.filter((status) => status === 200)).toHaveLength(100);
  expect(statuses.filter((status) => status === 429)).toHaveLength(28);
  expect(Math.min(...remaining)).toBe(0);
  expect(remaining.every((value) => Number.isInteger(value) && value >= 0)).toBe(true);
  expect(await state.getUsage(account.id, period.start)).toBe(ALLOWANCE);
  await state.close();
}, 120_000);

it('64 clients on each gateway spend a whole allowance from zero: exactly 10,000 succeed, then 429', async () => {
  const state = await openGatewayState(postgres.url);
  const now = () => new Date();
  const account = await createAccount({ state, now }, 'api');
  const { key } = await createApiKey({ state, now }, account.id);
  const period = billingPeriod(account.periodAnchor, new Date());
  let granted = 0;
  const client = async (url: string) => {
    for (;;) {
      const response = await fetch(`${url}/api/v1/subnets/1/history?days=90`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await response.arrayBuffer();
      if (response.status === 429) return;
      expect(response.status).toBe(200);
      granted += 1;
    }
  };
  await Promise.all(gateways.flatMap((gateway) => Array.from({ length: 64 }, () => client(gateway.url))));
  expect(granted).toBe(ALLOWANCE);
  for (const gateway of gateways) {
    const after = await fetch(`${gateway.url}/api/v1/subnets`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(after.status).toBe(429);
  }
  expect(await state.getUsage(account.id, period.start)).toBe(ALLOWANCE);
  await state.close();
}, 300_000);

it('a key revoked is refused on its next request on either gateway, while it holds a lease', async () => {
  const state = await openGatewayState(postgres.url);
  const now = () => new Date();
  const account = await createAccount({ state, now }, 'api');
  const created = await createApiKey({ state, now }, account.id);
  const auth = { authorization: `Bearer ${created.key}` };
  for (const gateway of gateways) {
    expect((await fetch(`${gateway.url}/api/v1/subnets/1/history?days=90`, { headers: auth })).status).toBe(
      200,
    );
  }
  await state.revokeKey(created.record.id, new Date());
  for (const gateway of gateways) {
    const refused = await fetch(`${gateway.url}/api/v1/subnets/1/history?days=90`, { headers: auth });
    expect(refused.status).toBe(401);
  }
  await state.close();
}, 60_000);
