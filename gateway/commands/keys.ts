import { Command } from 'commander';
import { createApiKey, keyStatus, listApiKeys, revokeApiKey } from '../auth/api-keys.js';
import type { GatewayConfig } from '../config.js';
import type { ApiKeyRecord } from '../state/gateway-state.js';
import { type CommandIo, isoOrNull, printJson, processIo, withState } from './command-io.js';
import { recordOperatorKeyEvent } from './key-events.js';

function describeKey(key: ApiKeyRecord, now: Date) {
  return {
    id: key.id,
    accountId: key.accountId,
    prefix: key.prefix,
    status: keyStatus(key, now),
    createdAt: key.createdAt.toISOString(),
    revokedAt: isoOrNull(key.revokedAt),
    expiresAt: isoOrNull(key.expiresAt),
  };
}

function keyLine(key: ApiKeyRecord, now: Date): string {
  const d = describeKey(key, now);
  const revoked = d.revokedAt ? `  revoked ${d.revokedAt}` : '';
  return `${d.id}  ${d.prefix}…  ${d.status}  created ${d.createdAt}${revoked}`;
}

/** `keys create|list|revoke`. Keys are shown in full once, at creation; the state keeps only a hash. */
export function keysCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const keys = new Command('keys').description(
    'Create, list and revoke API keys (at most 3 active per account)',
  );

  keys
    .command('create')
    .description('Create an API key and print it once')
    .requiredOption('--account <account-id>', 'the account the key belongs to')
    .option('--json', 'print JSON')
    .action(async (options: { account: string; json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const created = await createApiKey(deps, options.account);
        await recordOperatorKeyEvent(deps.state, created.record, 'created', created.record.createdAt);
        if (options.json) {
          printJson(io, { ...describeKey(created.record, deps.now()), key: created.key });
        } else {
          io.out(
            `created key ${created.record.id} for account ${options.account}; it is shown only this once:`,
          );
          io.out(created.key);
        }
      });
    });

  keys
    .command('list')
    .description("List an account's keys (prefixes only)")
    .requiredOption('--account <account-id>', 'the account')
    .option('--json', 'print JSON')
    .action(async (options: { account: string; json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const all = await listApiKeys(deps, options.account);
        const now = deps.now();
        if (options.json)
          printJson(
            io,
            all.map((key) => describeKey(key, now)),
          );
        else if (all.length === 0) io.out(`no keys for account ${options.account}`);
        else for (const key of all) io.out(keyLine(key, now));
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key; every gateway instance refuses it from the next request')
    .argument('<key-id>')
    .option('--json', 'print JSON')
    .action(async (keyId: string, options: { json?: boolean }) => {
      await withState(config, io, async (deps) => {
        // Only a revocation that happens now is an event: revoking a revoked key again changes nothing.
        const wasRevoked = (await deps.state.getKey(keyId))?.revokedAt ?? null;
        const revoked = await revokeApiKey(deps, keyId);
        if (!wasRevoked && revoked.revokedAt)
          await recordOperatorKeyEvent(deps.state, revoked, 'revoked', revoked.revokedAt);
        if (options.json) printJson(io, describeKey(revoked, deps.now()));
        else io.out(`revoked key ${revoked.id} (${revoked.prefix}…) at ${isoOrNull(revoked.revokedAt)}`);
      });
    });

  return keys;
}
