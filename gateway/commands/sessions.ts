import { Command, InvalidArgumentError } from 'commander';
import { createSession, revokeSession, SESSION_COOKIE } from '../auth/sessions.js';
import { createSignInLink, SIGN_IN_LINK_TTL_MS } from '../auth/sign-in-links.js';
import type { GatewayConfig } from '../config.js';
import type { SessionRecord } from '../state/gateway-state.js';
import { type CommandIo, isoOrNull, printJson, processIo, withState } from './command-io.js';

function describeSession(session: SessionRecord) {
  return {
    id: session.id,
    accountId: session.accountId,
    cookie: SESSION_COOKIE,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    revokedAt: isoOrNull(session.revokedAt),
  };
}

function parseDays(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new InvalidArgumentError(`--days must be a whole number >= 1, got "${raw}"`);
  return Number(raw);
}

/** `sessions create|revoke`: subscriber browser sessions (cookie `svc_explore`), not metered. */
export function sessionsCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const sessions = new Command('sessions').description('Create and revoke subscriber sessions');

  sessions
    .command('create')
    .description(
      `Create a subscriber session and print its ${SESSION_COOKIE} cookie value once; with --link, ` +
        'print a one-time sign-in link for the explorer instead',
    )
    .requiredOption('--account <account-id>', 'a subscriber account')
    .option('--days <days>', 'lifetime in days', parseDays)
    .option(
      '--link',
      `print a sign-in link (${SIGN_IN_LINK_TTL_MS / 60_000} minutes, single use) that sets the cookie in a browser`,
    )
    .option('--json', 'print JSON')
    .action(async (options: { account: string; days?: number; link?: boolean; json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const days = options.days ?? config.sessionDays;
        if (options.link) {
          const link = await createSignInLink(deps, options.account, {
            baseUrl: config.baseUrl,
            sessionDays: days,
          });
          if (options.json) {
            printJson(io, {
              id: link.record.id,
              accountId: options.account,
              url: link.url,
              expiresAt: link.record.expiresAt.toISOString(),
              sessionDays: days,
            });
          } else {
            io.out(
              `sign-in link for account ${options.account}, single use, valid until ` +
                `${link.record.expiresAt.toISOString()} (the session it opens lasts ${days} days); shown only this once:`,
            );
            io.out(link.url);
          }
          return;
        }
        const created = await createSession(deps, options.account, { days });
        if (options.json) {
          printJson(io, { ...describeSession(created.record), value: created.cookieValue });
        } else {
          io.out(
            `created session ${created.record.id} for account ${options.account}, valid until ` +
              `${created.record.expiresAt.toISOString()}; cookie ${SESSION_COOKIE}, shown only this once:`,
          );
          io.out(created.cookieValue);
        }
      });
    });

  sessions
    .command('revoke')
    .description('Revoke a session')
    .argument('<session-id>')
    .option('--json', 'print JSON')
    .action(async (sessionId: string, options: { json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const revoked = await revokeSession(deps, sessionId);
        if (options.json) printJson(io, describeSession(revoked));
        else io.out(`revoked session ${revoked.id} at ${isoOrNull(revoked.revokedAt)}`);
      });
    });

  return sessions;
}
