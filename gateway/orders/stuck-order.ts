import type { OrderRecord } from '../state/order-state.js';

/** Paid, out of tries, and nobody working on it: only an operator moves it on (`orders retry`). */
export function isStuck(order: OrderRecord, maxAttempts: number, now: Date): boolean {
  const leased = order.leaseExpiresAt !== null && order.leaseExpiresAt > now;
  return order.status === 'paid' && order.fulfilAttempts >= maxAttempts && !leased;
}

/** A fulfilled order whose delivery email failed and has not gone out since (the job tries again). */
export function isDeliveryFailing(order: OrderRecord): boolean {
  return (
    order.status === 'fulfilled' &&
    order.emailedAt === null &&
    order.purgedAt === null &&
    (order.lastError?.startsWith('delivery:') ?? false)
  );
}
