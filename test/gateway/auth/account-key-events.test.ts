/**
 * `sbm-gateway accounts show` lists the account's recent key events (created, revoked), newest first,
 * with the keys' visible prefixes only, run in-process against a SQLite file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountsCommand } from '../../../gateway/commands/accounts.js';
import type { CommandIo } from '../../../gateway/commands/command-io.js';
import { keysCommand } from '../../../gateway/commands/keys.js';
import { type GatewayConfig, loadGatewayConfig } from '../../../gateway/config.js';

let dir: string;
let config: GatewayConfig;
const clock = { ms: Date.parse('2025-03-15T10:00:00Z') };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-key-events-'));
  config = loadGatewayConfig({ SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}` });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<string> {
  const lines: string[] = [];
  const io: CommandIo = { out: (text) => lines.push(text), now: () => new Date(clock.ms) };
  const program = new Command('sbm-gateway')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .addCommand(accountsCommand(config, io))
    .addCommand(keysCommand(config, io));
  for (const sub of program.commands) {
    sub.exitOverride().configureOutput({ writeErr: () => {} });
    for (const leaf of sub.commands) leaf.exitOverride().configureOutput({ writeErr: () => {} });
  }
  await program.parseAsync(args, { from: 'user' });
  return lines.map((line) => `${line}\n`).join('');
}

it('shows the recent key events of an account, newest first, without the keys', async () => {
  const account = JSON.parse(await run('accounts', 'create', '--plan', 'api', '--json')) as { id: string };
  expect(await run('accounts', 'show', account.id)).toContain('recent key events: none');

  const first = JSON.parse(await run('keys', 'create', '--account', account.id, '--json')) as {
    id: string;
    key: string;
    prefix: string;
  };
  clock.ms += 3_600_000;
  const second = JSON.parse(await run('keys', 'create', '--account', account.id, '--json')) as {
    key: string;
    prefix: string;
  };
  clock.ms += 3_600_000;
  await run('keys', 'revoke', first.id);

  const shown = await run('accounts', 'show', account.id);
  expect(shown).toContain('recent key events:');
  const events = shown.split('\n').filter((line) => line.startsWith('  '));
  expect(events).toEqual([
    `  2025-03-15T12:00:00.000Z  ${first.prefix}…  revoked`,
    `  2025-03-15T11:00:00.000Z  ${second.prefix}…  created`,
    `  2025-03-15T10:00:00.000Z  ${first.prefix}…  created`,
  ]);
  expect(shown).not.toContain(first.key);
  expect(shown).not.toContain(second.key);

  const json = JSON.parse(await run('accounts', 'show', account.id, '--json')) as {
    keyEvents: { at: string; prefix: string; event: string }[];
  };
  expect(json.keyEvents.map((e) => e.event)).toEqual(['revoked', 'created', 'created']);
});
