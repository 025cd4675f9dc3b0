/**
 * The gateway's command groups (`sbm-gateway serve`, `orders`, …), each loaded only when a command line asks
 * for it (`commandsAsked`); the tests that check every command build them all from here.
 */
import { Command } from 'commander';
import type { CommandGroups } from '../pipeline/command-line.js';
import type { GatewayConfig } from './config.js';

function serveCommand(config: GatewayConfig): Command {
  return new Command('serve')
    .description('serve the published snapshots under /api/v1 (and /tax) until SIGINT/SIGTERM')
    .option('--host <host>', 'interface to listen on (SBM_HOST)', config.host)
    .option('--port <port>', 'port to listen on (SBM_PORT)', String(config.port))
    .action(async (options: { host: string; port: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be 0..65535');
      const { startGateway } = await import('./server.js');
      const gateway = await startGateway({ ...config, host: options.host, port });
      process.stdout.write(`gateway listening on ${gateway.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await gateway.close();
    });
}

/** The command groups, in the order `sbm-gateway --help` lists them, each loaded only when asked for. */
export const GATEWAY_COMMANDS: CommandGroups<GatewayConfig> = {
  serve: async (config) => serveCommand(config),
  accounts: async (config) => (await import('./commands/accounts.js')).accountsCommand(config),
  keys: async (config) => (await import('./commands/keys.js')).keysCommand(config),
  sessions: async (config) => (await import('./commands/sessions.js')).sessionsCommand(config),
  orders: async (config) => (await import('./commands/orders.js')).ordersCommand(config),
  skus: async (config) => (await import('./commands/skus.js')).skusCommand(config),
  stripe: async (config) => (await import('./commands/stripe.js')).stripeCommand(config),
};
