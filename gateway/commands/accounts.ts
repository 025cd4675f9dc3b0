import { Command, Option } from 'commander';
import { accountHasAccess, cancelAccount, createAccount } from '../auth/accounts.js';
import { keyStatus } from '../auth/api-keys.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import { UnknownAccountError } from '../auth/auth-errors.js';
import { billingPeriod } from '../auth/billing-period.js';
import type { GatewayConfig } from '../config.js';
import { type Account, PLANS, type Plan } from '../state/gateway-state.js';
import { type CommandIo, isoOrNull, printJson, processIo, withState } from './command-io.js';
import { recentKeyEvents } from './key-events.js';

/** An account as the operator sees it: the stored fields plus the billing period that applies now. */
function describeAccount(account: Account, now: Date) {
  const period = billingPeriod(account.periodAnchor, now);
  return {
    id: account.id,
    plan: account.plan,
    status: account.status,
    hasAccess: accountHasAccess(account, now),
    createdAt: account.createdAt.toISOString(),
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    cancelledAt: isoOrNull(account.cancelledAt),
    accessEndsAt: isoOrNull(account.accessEndsAt),
  };
}

function accountLine(account: Account, now: Date): string {
  const d = describeAccount(account, now);
  const access = d.accessEndsAt ? `, access until ${d.accessEndsAt}` : '';
  return `${d.id}  ${d.plan}  ${d.status}  period ${d.periodStart} → ${d.periodEnd}${access}`;
}

async function requireAccount(deps: AuthDeps, id: string): Promise<Account> {
  const account = await deps.state.getAccount(id);
  if (!account) throw new UnknownAccountError(id);
  return account;
}

/** `accounts create|list|show|cancel`: operator management of API and subscriber accounts. */
export function accountsCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const accounts = new Command('accounts').description('Create, list, show and cancel accounts');

  accounts
    .command('create')
    .description('Create an account; its first billing period starts now')
    .addOption(
      new Option('--plan <plan>', 'api (metered keys) or subscriber (browser sessions)')
        .choices(PLANS)
        .makeOptionMandatory(),
    )
    .option('--json', 'print JSON')
    .action(async (options: { plan: Plan; json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const account = await createAccount(deps, options.plan);
        if (options.json) printJson(io, describeAccount(account, deps.now()));
        else io.out(`created account ${accountLine(account, deps.now())}`);
      });
    });

  accounts
    .command('list')
    .description('List all accounts')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const all = await deps.state.listAccounts();
        const now = deps.now();
        if (options.json)
          printJson(
            io,
            all.map((account) => describeAccount(account, now)),
          );
        else if (all.length === 0) io.out('no accounts');
        else for (const account of all) io.out(accountLine(account, now));
      });
    });

  accounts
    .command('show')
    .description("Show an account with this period's usage, its keys and their recent events")
    .argument('<account-id>')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const account = await requireAccount(deps, id);
        const now = deps.now();
        const period = billingPeriod(account.periodAnchor, now);
        // Settled use: the unspent units of the gateways' open allowance leases are not counted.
        const used = await deps.state.getSettledUsage(id, period.start, now);
        const keys = await deps.state.listKeys(id);
        const activeKeys = keys.filter((key) => keyStatus(key, now) === 'active').length;
        const usage = {
          used,
          limit: config.monthlyAllowance,
          remaining: Math.max(0, config.monthlyAllowance - used),
        };
        const keyEvents = await recentKeyEvents(deps.state, id, keys, now);
        if (options.json) {
          printJson(io, {
            ...describeAccount(account, now),
            usage,
            activeKeys,
            keyEvents: keyEvents.map((e) => ({
              at: e.at.toISOString(),
              prefix: e.prefix,
              event: e.event,
              from: e.from,
            })),
          });
        } else {
          io.out(accountLine(account, now));
          io.out(
            `usage this period: ${used} of ${usage.limit} (${usage.remaining} left); active keys: ${activeKeys}`,
          );
          io.out(keyEvents.length === 0 ? 'recent key events: none' : 'recent key events:');
          for (const e of keyEvents)
            io.out(`  ${e.at.toISOString()}  ${e.prefix}…  ${e.event}${e.from ? `  from ${e.from}` : ''}`);
        }
      });
    });

  accounts
    .command('cancel')
    .description('Cancel an account; it keeps access until its paid period ends')
    .argument('<account-id>')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      await withState(config, io, async (deps) => {
        const account = await cancelAccount(deps, id);
        if (options.json) printJson(io, describeAccount(account, deps.now()));
        else io.out(`cancelled account ${id}; access until ${isoOrNull(account.accessEndsAt)}`);
      });
    });

  return accounts;
}
