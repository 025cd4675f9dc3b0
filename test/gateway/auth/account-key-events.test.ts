/**
 * `sbm-gateway accounts show` lists the account's recent key events from the key_events table the
 * account page shows: the operator's `keys create` and `keys revoke` (from "operator"), the holder's
 * create and roll on the account page (from the request's address), and the end of a roll's grace
 * period (expired), newest first, with the keys' visible prefixes only. Run in-process on a SQLite file
 * and a PostgreSQL schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountKey, rollAccountKey } from '../../../gateway/account/account-keys.js';
import { accountsCommand } from '../../../gateway/commands/accounts.js';
import { keysCommand } from '../../../gateway/commands/keys.js';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';
import type { GatewayState } from '../../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { STATE_ENGINES, type TestStateStore } from '../state/state-engines.js';
import { operatorCli } from './operator-cli.js';

const HOUR = 3_600_000;

describe.each(STATE_ENGINES)('accounts show: key events on $name', (engine) => {
  let store: TestStateStore;
  let config: GatewayConfig;
  let state: GatewayState;
  const clock = { ms: Date.parse('2025-03-15T10:00:00Z') };
  const now = () => new Date(clock.ms);

  beforeAll(async () => {
    store = await engine.start();
    config = loadGatewayConfig({ SBM_STATE_URL: store.url });
    state = await openGatewayState(store.url);
  });

  afterAll(async () => {
    await state?.close();
    await store?.stop();
  });

  const run = operatorCli((io) => [accountsCommand(config, io), keysCommand(config, io)], now);

  const eventLines = (shown: string) => shown.split('\n').filter((line) => line.startsWith('  '));

  it("lists the operator's and the holder's key changes and expiries, newest first, without the keys", async () => {
    const account = JSON.parse(await run('accounts', 'create', '--plan', 'api', '--json')) as { id: string };
    expect(await run('accounts', 'show', account.id)).toContain('recent key events: none');

    // 10:00 the operator makes a key; 11:00 the holder makes one on the account page.
    const first = JSON.parse(await run('keys', 'create', '--account', account.id, '--json')) as {
      id: string;
      key: string;
      prefix: string;
    };
    clock.ms += HOUR;
    const holder = { state, now, mailer: null };
    const record = (await state.getAccount(account.id))!;
    const second = await createAccountKey(holder, record, 'laptop', '203.0.113.7');

    // 12:00 the operator revokes the first key (twice: the second changes nothing); 13:00 the holder
    // rolls the second with an hour's grace, which has passed by 15:00.
    clock.ms += HOUR;
    await run('keys', 'revoke', first.id);
    clock.ms += HOUR;
    await run('keys', 'revoke', first.id);
    const rolled = await rollAccountKey(holder, record, second.record.id, 3600, '198.51.100.4');
    clock.ms += 2 * HOUR;

    const shown = await run('accounts', 'show', account.id);
    expect(shown).toContain('recent key events:');
    expect(eventLines(shown)).toEqual([
      `  2025-03-15T14:00:00.000Z  ${second.record.prefix}…  expired`,
      `  2025-03-15T13:00:00.000Z  ${rolled.record.prefix}…  created  from 198.51.100.4`,
      `  2025-03-15T13:00:00.000Z  ${second.record.prefix}…  rolled  from 198.51.100.4`,
      `  2025-03-15T12:00:00.000Z  ${first.prefix}…  revoked  from operator`,
      `  2025-03-15T11:00:00.000Z  ${second.record.prefix}…  created  from 203.0.113.7`,
      `  2025-03-15T10:00:00.000Z  ${first.prefix}…  created  from operator`,
    ]);
    for (const secret of [first.key, second.key, rolled.key]) expect(shown).not.toContain(secret);

    const json = JSON.parse(await run('accounts', 'show', account.id, '--json')) as {
      keyEvents: { at: string; prefix: string; event: string; from: string | null }[];
    };
    expect(json.keyEvents.map((e) => [e.event, e.from])).toEqual([
      ['expired', null],
      ['created', '198.51.100.4'],
      ['rolled', '198.51.100.4'],
      ['revoked', 'operator'],
      ['created', '203.0.113.7'],
      ['created', 'operator'],
    ]);

    // The account page reads the same table: the operator's changes are there too, with no address
    // (the page shows their source as "operator", as `accounts show` does).
    const page = await state.billing.listKeyEvents(account.id, 20);
    expect(page.filter((e) => e.ip === null).map((e) => e.kind)).toEqual(['revoked', 'created']);
  });
});
