import { type Command, InvalidArgumentError } from 'commander';
import { CommandExit } from '../../pipeline/command-line.js';
import { reconcileSubscriptions, type SubscriptionReport } from '../account/reconcile-subscriptions.js';
import type { GatewayConfig } from '../config.js';
import type { OrderAlert } from '../orders/order-alerts.js';
import { orderSeal } from '../orders/order-seal.js';
import {
  RECONCILE_DEFAULT_DAYS,
  type ReconcileReport,
  reconcileLines,
  reconcilePayments,
} from '../orders/reconcile-payments.js';
import { stripeClient } from '../orders/stripe-checkout.js';
import { openGatewayState } from '../state/open-gateway-state.js';
import { type CommandIo, printJson } from './command-io.js';
import { type RestoreReport, restoreLines, restoreReport } from './restore-report.js';

function parseDays(raw: string): number {
  const days = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || days < 1 || days > 90) {
    throw new InvalidArgumentError('expected a whole number of days from 1 to 90');
  }
  return days;
}

/**
 * `orders reconcile`: what Stripe has that the state may lack. Paid Checkout Sessions go through the
 * webhook's handling (orders made again from their sealed metadata when the state lacks them), and the
 * API plan's subscriptions through the billing webhook's. Exits 1 when a session needs an operator
 * (a sealed order refused, an order that cannot be made, an amount that does not match).
 */
export function addReconcileCommand(
  orders: Command,
  config: GatewayConfig,
  io: CommandIo & { alert: (alert: OrderAlert) => void },
): void {
  orders
    .command('reconcile')
    .description(
      'Ask Stripe for the checkout sessions completed in the last --days days and record every payment the ' +
        'state lacks, as the webhook would (orders lost to a restore are made again); sync the API plan’s subscriptions',
    )
    .option(
      '--days <n>',
      'how far back to look (Stripe keeps events for 30 days)',
      parseDays,
      RECONCILE_DEFAULT_DAYS,
    )
    .option(
      '--after-restore',
      'also say from when the state dates and which accounts may need keys or sessions reissued',
    )
    .option('--json', 'print JSON')
    .action(async (options: { days: number; afterRestore?: boolean; json?: boolean }) => {
      const { orders: orderConfig, apiPlan } = config;
      if (!orderConfig.stripeSecretKey)
        throw new Error('STRIPE_SECRET_KEY is not set: reconcile asks Stripe');
      const stripe = stripeClient(orderConfig.stripeSecretKey, orderConfig.stripeApiBase);
      const seal = orderConfig.orderSecret ? orderSeal(orderConfig.orderSecret) : null;
      const state = await openGatewayState(config.stateUrl);
      let payments: ReconcileReport;
      let subscriptions: SubscriptionReport[] | null = null;
      let restore: RestoreReport | null = null;
      try {
        // Read before reconcile writes anything: what it makes again is dated now.
        if (options.afterRestore) restore = await restoreReport(state);
        payments = await reconcilePayments(
          { state, stripe, now: io.now, alert: io.alert, seal },
          options.days,
        );
        if (apiPlan.priceId) {
          subscriptions = await reconcileSubscriptions({
            state,
            stripe,
            now: io.now,
            priceId: apiPlan.priceId,
          });
        }
      } finally {
        await state.close();
      }
      if (options.json) printJson(io, { ...payments, subscriptions, ...(restore ? { restore } : {}) });
      else {
        if (!seal) io.out('SBM_ORDER_SECRET is not set: orders missing from the state cannot be made again');
        for (const line of reconcileLines(payments)) io.out(line);
        if (subscriptions) for (const line of subscriptionLines(subscriptions)) io.out(line);
        else io.out('API plan subscriptions: not checked (SBM_API_PLAN_PRICE is not set)');
        if (restore) for (const line of restoreLines(restore)) io.out(line);
      }
      const c = payments.counts;
      if (c.refused + c['unknown-order'] + c['amount-mismatch'] > 0) throw new CommandExit(1);
    });
}

function subscriptionLines(reports: SubscriptionReport[]): string[] {
  const lines = reports
    .filter((r) => !r.actions.includes('in-step'))
    .map(
      (r) =>
        `subscription ${r.subscription} (${r.status}) of ${r.account_id ?? 'no account id'}: ${r.actions.join(', ')}` +
        (r.actions.includes('unknown-account')
          ? ' — the account is not in the state (made after the backup?): its holder signs in again; refund or move the subscription in Stripe'
          : ''),
    );
  const count = (action: string) => reports.filter((r) => r.actions.includes(action as never)).length;
  lines.push(
    `${reports.length} API plan subscription${reports.length === 1 ? '' : 's'}: ${count('synced')} synced, ` +
      `${count('period-restored')} paid periods restored, ${count('in-step')} in step, ${count('unknown-account')} of unknown accounts`,
  );
  return lines;
}
