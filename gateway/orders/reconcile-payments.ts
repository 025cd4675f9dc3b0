import type Stripe from 'stripe';
import type { GatewayState } from '../state/gateway-state.js';
import type { OrderAlert } from './order-alerts.js';
import type { OrderSeal } from './order-seal.js';
import { handleCheckoutSessionEvent, stripeTime } from './stripe-webhook.js';

/** Stripe keeps events for 30 days: a webhook lost longer ago than that cannot be replayed either. */
export const RECONCILE_DEFAULT_DAYS = 30;

export interface ReconcileDeps {
  state: GatewayState;
  stripe: Stripe;
  now: () => Date;
  alert: (alert: OrderAlert) => void;
  /** Opens the sessions' sealed metadata, to make again an order the state lacks. */
  seal: OrderSeal | null;
}

/** What reconcile did with one completed Checkout Session in payment mode. */
export type SessionAction =
  /** The order was `created`; this run recorded the payment (`remade`: the order was made again first). */
  | 'paid'
  | 'remade-and-paid'
  /** Already paid or fulfilled: left alone. */
  | 'already-paid'
  /** Completed but not paid yet (a delayed payment method). */
  | 'awaiting-payment'
  /** The sealed metadata does not open: nothing made, an alert sent. */
  | 'refused'
  /** No order, and nothing to make one from (a session from before orders were sealed). */
  | 'unknown-order'
  | 'amount-mismatch'
  | 'no-order-id';

export interface SessionReport {
  session: string;
  order_id: string | null;
  action: SessionAction;
  detail?: string;
}

export interface ReconcileReport {
  /** Sessions created at or after this instant (UTC) were asked for. */
  since: string;
  sessions: SessionReport[];
  counts: Record<SessionAction, number>;
}

/**
 * `orders reconcile`: the payments Stripe has that the state may have missed (a webhook that never
 * arrived, an order lost to a restore). It lists the Checkout Sessions completed in the last `days`
 * days through the official client (auto-pagination: `starting_after` while `has_more`) and passes
 * each paid one in payment mode through the webhook's own handling of `checkout.session.completed`
 * (`handleCheckoutSessionEvent`), under the event id `reconcile:<session id>`: a second run, or a
 * second operator at once, finds that id recorded and changes nothing. An order that is already paid
 * is not touched at all. Sessions are listed by creation time: one completes within 24 hours of it.
 */
export async function reconcilePayments(deps: ReconcileDeps, days: number): Promise<ReconcileReport> {
  const now = deps.now();
  const since = Math.floor(now.getTime() / 1000) - days * 86_400;
  const sessions: SessionReport[] = [];
  const list = deps.stripe.checkout.sessions.list({
    created: { gte: since },
    status: 'complete',
    limit: 100,
  });
  for await (const session of list) {
    if (session.mode !== 'payment') continue;
    sessions.push(await reconcileSession(deps, session));
  }
  const counts = Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Record<SessionAction, number>;
  for (const entry of sessions) counts[entry.action] += 1;
  return { since: new Date(since * 1000).toISOString(), sessions, counts };
}

const ACTIONS: readonly SessionAction[] = [
  'paid',
  'remade-and-paid',
  'already-paid',
  'awaiting-payment',
  'refused',
  'unknown-order',
  'amount-mismatch',
  'no-order-id',
];

async function reconcileSession(
  deps: ReconcileDeps,
  session: Stripe.Checkout.Session,
): Promise<SessionReport> {
  const orderId = session.metadata?.['order_id'] ?? session.client_reference_id ?? null;
  const report = (action: SessionAction, detail?: string): SessionReport => ({
    session: session.id,
    order_id: orderId,
    action,
    ...(detail ? { detail } : {}),
  });
  if (session.payment_status !== 'paid')
    return report('awaiting-payment', `payment_status ${session.payment_status}`);
  if (!orderId) return report('no-order-id');
  const order = await deps.state.orders.getOrder(orderId);
  if (order && order.status !== 'created') return report('already-paid');
  const receivedAt = deps.now();
  const result = await handleCheckoutSessionEvent(
    { state: deps.state, now: deps.now, alert: deps.alert, seal: deps.seal },
    { id: `reconcile:${session.id}`, type: 'checkout.session.completed' },
    session,
    receivedAt,
    await paymentTime(deps.stripe, session, receivedAt),
  );
  if (result.handled === 'refused') return report('refused', result.reason);
  if (result.handled === 'ignored') return report('awaiting-payment', result.reason);
  switch (result.outcome) {
    case 'paid':
      return report(result.remade ? 'remade-and-paid' : 'paid');
    case 'unknown-order':
      return report('unknown-order');
    case 'amount-mismatch':
      return report('amount-mismatch', `${session.amount_total ?? '?'} ${session.currency ?? ''}`.trim());
    case 'duplicate-event': {
      // An earlier run recorded this session: say again what it found (nothing changes).
      const now = await deps.state.orders.getOrder(orderId);
      if (!now) return report('unknown-order');
      return now.status === 'created' ? report('amount-mismatch', 'reported before') : report('already-paid');
    }
    // Paid meanwhile by the webhook.
    default:
      return report('already-paid');
  }
}

/**
 * When the buyer paid, by Stripe: the `created` of the session's PaymentIntent. Since API version
 * 2022-08-01 Checkout makes it when the buyer confirms the payment, not when the session is made
 * (Stripe's changelog, "Deferred PaymentIntent creation in Checkout Session payment mode"); a session
 * lists it by id, so it is read once, for a session reconcile records. A session without one (none in
 * payment mode once paid) is dated now.
 */
async function paymentTime(stripe: Stripe, session: Stripe.Checkout.Session, now: Date): Promise<Date> {
  const intent = session.payment_intent;
  if (!intent) return now;
  if (typeof intent !== 'string') return stripeTime(intent.created, now);
  return stripeTime((await stripe.paymentIntents.retrieve(intent)).created, now);
}

/** The report as lines for the operator: ids only (no email, no coldkey, no token). */
export function reconcileLines(report: ReconcileReport): string[] {
  const lines = report.sessions
    .filter((entry) => entry.action !== 'already-paid')
    .map(
      (entry) =>
        `${entry.action} ${entry.order_id ?? '(no order id)'} (session ${entry.session})${entry.detail ? `: ${entry.detail}` : ''}`,
    );
  const c = report.counts;
  lines.push(
    `${report.sessions.length} paid-mode session${report.sessions.length === 1 ? '' : 's'} completed since ${report.since}: ` +
      `${c.paid} paid now, ${c['remade-and-paid']} made again and paid, ${c['already-paid']} already paid, ` +
      `${c['awaiting-payment']} awaiting payment, ${c.refused} refused, ${c['unknown-order']} unknown, ` +
      `${c['amount-mismatch']} amount mismatches`,
  );
  return lines;
}
