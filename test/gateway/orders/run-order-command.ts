/**
 * The gateway's order, SKU and Stripe commands run in-process: the same builders `gateway/cli.ts`
 * mounts, with output and alerts captured and the test's clock.
 */
import { Command } from 'commander';
import type { OrderCommandIo } from '../../../gateway/commands/orders.js';
import { ordersCommand } from '../../../gateway/commands/orders.js';
import { skusCommand } from '../../../gateway/commands/skus.js';
import { stripeCommand } from '../../../gateway/commands/stripe.js';
import type { GatewayConfig } from '../../../gateway/config.js';
import type { OrderAlert } from '../../../gateway/orders/order-alerts.js';

export interface CommandRun {
  out: string;
  alerts: OrderAlert[];
}

export async function runOrderCommand(
  config: GatewayConfig,
  now: () => Date,
  ...args: string[]
): Promise<CommandRun> {
  const lines: string[] = [];
  const alerts: OrderAlert[] = [];
  const io: OrderCommandIo = {
    out: (text) => lines.push(text),
    now,
    alert: (alert) => alerts.push(alert),
    stopped: () => new Promise(() => {}),
  };
  const program = new Command('sbm-gateway')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .addCommand(ordersCommand(config, io))
    .addCommand(skusCommand(config, io))
    .addCommand(stripeCommand(config, io));
  const quiet = (command: Command) => {
    command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    for (const sub of command.commands) quiet(sub);
  };
  quiet(program);
  await program.parseAsync(args, { from: 'user' });
  return { out: lines.map((line) => `${line}\n`).join(''), alerts };
}
