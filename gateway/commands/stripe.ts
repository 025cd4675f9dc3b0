import { Command } from 'commander';
import type { GatewayConfig } from '../config.js';
import { simulatePayment } from '../orders/simulate-payment.js';
import { openGatewayState } from '../state/open-gateway-state.js';
import { type CommandIo, printJson, processIo } from './command-io.js';

/** `stripe simulate-payment`: the demo's stand-in for a buyer paying on Stripe's page. */
export function stripeCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const stripe = new Command('stripe').description('Stripe helpers for the local stand-in (demo, tests)');
  stripe
    .command('simulate-payment')
    .description(
      'Pay an order on the local stand-in (its Checkout Session completed, as its page does) and send the ' +
        'gateway the signed checkout.session.completed Stripe would send (only when STRIPE_API_BASE is the local stand-in)',
    )
    .argument('<order-id>')
    .option('--email <email>', "the buyer's email in the event", 'buyer@example.com')
    .option('--gateway <url>', 'the gateway to send it to', config.baseUrl)
    .option('--json', 'print JSON')
    .action(async (orderId: string, options: { email: string; gateway: string; json?: boolean }) => {
      const state = await openGatewayState(config.stateUrl);
      try {
        const result = await simulatePayment(
          {
            state,
            apiBase: config.orders.stripeApiBase,
            webhookSecret: config.orders.stripeWebhookSecret,
            gatewayUrl: options.gateway.replace(/\/+$/, ''),
            now: io.now,
          },
          orderId,
          { email: options.email },
        );
        if (options.json) printJson(io, result);
        else {
          io.out(
            `sent ${result.eventId} (checkout.session.completed) for ${orderId}: HTTP ${result.status} ${result.body}`,
          );
          if (result.successUrl) io.out(`Stripe would now send the buyer to: ${result.successUrl}`);
        }
        if (result.status !== 200) throw new Error(`the gateway answered ${result.status}: ${result.body}`);
      } finally {
        await state.close();
      }
    });
  return stripe;
}
