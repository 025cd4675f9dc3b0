import { z } from 'zod';
import { MAX_COLDKEYS_PER_PACK, SKU_IDS } from './sku.js';
import { Coldkey } from './tax-check.js';

/**
 * POST /tax/checkout (spec: "not shown"): starts a hosted checkout for one tax pack. The buyer's email
 * is not asked here: Stripe's checkout page collects it, and the payment event brings it back.
 */
export const CheckoutRequest = z
  .object({
    sku: z.enum(SKU_IDS).meta({ description: 'The pack to buy (see the description of this operation).' }),
    coldkeys: z
      .array(Coldkey)
      .min(1)
      .max(MAX_COLDKEYS_PER_PACK)
      .meta({ description: `Addresses the pack covers: 1 to ${MAX_COLDKEYS_PER_PACK}, all different.` }),
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
export type WebhookAck = z.infer<typeof WebhookAck>;
