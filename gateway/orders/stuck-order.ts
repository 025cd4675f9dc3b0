import type { OrderRecord, OrderRevision } from '../state/order-state.js';

/** Paid, out of tries, and nobody working on it: only an operator moves it on (`orders retry`). */
export function isStuck(order: OrderRecord, maxAttempts: number, now: Date): boolean {
  const leased = order.leaseExpiresAt !== null && order.leaseExpiresAt > now;
  return order.status === 'paid' && order.fulfilAttempts >= maxAttempts && !leased;
}

/**
 * A pending revision out of tries and nobody holding it: the job leaves it (a later upload is built in
 * its place, its files included) until an operator puts it back (`orders retry ID --version N`).
 */
export function isRevisionStuck(revision: OrderRevision, maxAttempts: number, now: Date): boolean {
  const leased = revision.leaseExpiresAt !== null && revision.leaseExpiresAt > now;
  return revision.status === 'pending' && revision.attempts >= maxAttempts && !leased;
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
