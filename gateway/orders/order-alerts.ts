/**
 * Things about orders an operator must hear of (a payment that does not match its order, a pack that
 * cannot be built), written as one JSON line each. Never a token, secret, email or coldkey: an order id
 * and a Stripe event id identify the case and reveal nothing on their own.
 */
export interface OrderAlert {
  level: 'alert' | 'warn' | 'info';
  event: string;
  order_id?: string;
  stripe_event?: string;
  [detail: string]: string | number | null | undefined;
}

export function alertLine(alert: OrderAlert): string {
  return `${JSON.stringify({ time: new Date().toISOString(), ...alert })}\n`;
}
