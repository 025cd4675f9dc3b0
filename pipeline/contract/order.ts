import { z } from 'zod';

export const OrderStatus = z.enum(['created', 'paid', 'fulfilled']).meta({ id: 'OrderStatus' });

/** One file of a revision, as the buyer gave it for a revised pack. */
export const OrderRevisionFile = z
  .object({
    name: z.string().meta({ description: 'The file name as uploaded (or `addresses (typed in)`).' }),
    sha256: z.string().meta({ description: 'Hex SHA-256 of the bytes as uploaded.' }),
    rows: z.number().int().meta({ description: 'Data rows read (the header not counted).' }),
    role: z.enum(['records', 'addresses', 'opening']),
  })
  .meta({ id: 'OrderRevisionFile' });

/** A revised pack: one accepted upload of the buyer's own records, built once by the fulfilment job. */
export const OrderRevision = z
  .object({
    version: z.number().int().meta({ description: 'The pack version this upload makes: 2, 3, …' }),
    status: z.enum(['pending', 'built', 'rejected', 'superseded']).meta({
      description:
        'pending: accepted, its pack not built yet; built: its pack is the one served (if newest); rejected: the build refused the records (see problem), the earlier pack stays; superseded: its own build failed and a later version, whose pack includes these files, was built instead (see superseded_by).',
    }),
    created_at: z.string(),
    built_at: z.string().optional(),
    files: z.array(OrderRevisionFile),
    problem: z
      .string()
      .optional()
      .meta({ description: 'Present when rejected: the file, line, column and reason, one line.' }),
    superseded_by: z
      .number()
      .int()
      .optional()
      .meta({ description: 'Present when superseded: the version whose pack includes these files.' }),
  })
  .meta({ id: 'OrderRevision' });

/** The body of GET /tax/orders/{order_id}. Timestamps are ISO 8601 UTC. */
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
    pack_version: z.number().int().optional().meta({
      description:
        'Present only once fulfilled: the version `pack_url` serves (1, or the newest built revision).',
    }),
    records_url: z.string().optional().meta({
      description:
        "Present while the order takes the buyer's own records (paid, pack not expired): POST multipart/form-data here (fields records, addresses, opening) for a revised pack at no charge.",
    }),
    revisions: z
      .array(OrderRevision)
      .optional()
      .meta({ description: 'Present once paid: each accepted upload of own records, oldest first.' }),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof Order>;
