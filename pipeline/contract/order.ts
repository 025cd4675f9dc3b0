import { z } from 'zod';

export const OrderStatus = z.enum(['created', 'paid', 'fulfilled']).meta({ id: 'OrderStatus' });

/** Spec 2.10: body of GET /tax/orders/{order_id}. Timestamps are ISO 8601 UTC. */
export const Order = z
  .object({
    id: z.string().meta({ description: 'The order id.' }),
    status: OrderStatus,
    pack: z.object({ sku: z.string(), name: z.string(), kind: z.string() }),
    coldkeys: z.array(z.string()).meta({ description: 'Addresses covered by the order.' }),
    created_at: z.string(),
    paid_at: z.string().optional().meta({ description: 'Set by the payment webhook.' }),
    fulfilled_at: z.string().optional().meta({ description: 'Set by the fulfilment job.' }),
    pack_url: z
      .string()
      .optional()
      .meta({ description: 'Present only once fulfilled: the pack download including the token.' }),
    pack_expires_at: z
      .string()
      .optional()
      .meta({ description: 'Present only once fulfilled: 30 days after fulfilment.' }),
    retention_days: z.number().int().meta({ description: 'Retention period of the pack, in days.' }),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof Order>;
