/**
 * `sbm-gateway`: the gateway's command line. The only gateway file (with server.ts) that reads
 * `process.env` or calls `process.exit`.
 */
import { Command } from 'commander';
import { exitWhenWritten, runProgram } from '../pipeline/command-line.js';
import { accountsCommand } from './commands/accounts.js';
import { keysCommand } from './commands/keys.js';
import { ordersCommand } from './commands/orders.js';
import { sessionsCommand } from './commands/sessions.js';
import { skusCommand } from './commands/skus.js';
import { stripeCommand } from './commands/stripe.js';
import { type GatewayConfig, loadGatewayConfig } from './config.js';
import { startGateway } from './server.js';

// The AWS SDK prints a NodeVersionSupportWarning on stderr in every Node 20 process that builds an S3
// client: SDK releases after January 2027 need Node 22 (aws/aws-sdk-js-v3#7983). The SDK is pinned in
// package.json, so that notice is for whoever upgrades it (README "Configuration"), not for operators;
// this is the SDK's documented opt-out. `AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false` brings it back.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

function serveCommand(config: GatewayConfig): Command {
  return new Command('serve')
    .description('serve the published snapshots under /api/v1 (and /tax) until SIGINT/SIGTERM')
    .option('--host <host>', 'interface to listen on (SBM_HOST)', config.host)
    .option('--port <port>', 'port to listen on (SBM_PORT)', String(config.port))
    .action(async (options: { host: string; port: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be 0..65535');
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

async function main(): Promise<number> {
  const config = loadGatewayConfig(process.env);
  const program = new Command('sbm-gateway')
    .description('Subnet burn metrics gateway: serve snapshots; accounts, keys, sessions; tax orders')
    .version('0.1.0');
  program.addCommand(serveCommand(config));
  program.addCommand(accountsCommand(config));
  program.addCommand(keysCommand(config));
  program.addCommand(sessionsCommand(config));
  program.addCommand(ordersCommand(config));
  program.addCommand(skusCommand(config));
  program.addCommand(stripeCommand(config));
  return runProgram(program, process.argv, { debug: process.env['SBM_DEBUG'] === '1' });
}

// Exits only once stdout and stderr have drained: `process.exit` right away cut output to a pipe at 64 KB.
main().then(
  (code) => exitWhenWritten(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitWhenWritten(1);
  },
);
