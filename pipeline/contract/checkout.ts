import { z } from 'zod';
import { Coldkey } from './tax-check.js';

/** POST /tax/checkout (spec: "not shown"): starts a hosted checkout for one tax pack. */
export const CheckoutRequest = z
  .object({
    sku: z.string().min(1).meta({ description: 'The pack to buy.' }),
    coldkeys: z.array(Coldkey).min(1).max(10).meta({ description: 'Addresses the pack covers.' }),
    email: z.email().optional().meta({ description: 'Where the delivery email goes.' }),
  })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

export const CheckoutSession = z
  .object({
    order_id: z.string(),
    checkout_url: z.string().meta({ description: 'The hosted checkout page to send the buyer to.' }),
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const WebhookAck = z.object({ received: z.literal(true) }).meta({ id: 'WebhookAck' });
