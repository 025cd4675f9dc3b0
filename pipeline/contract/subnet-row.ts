import { z } from 'zod';
import { Claim } from './claim.js';

const alpha = (window: string) =>
  z.number().meta({ description: `Burned alpha over the trailing ${window} ending at as_of.` });
const tao = (window: string) =>
  z
    .number()
    .nullable()
    .meta({
      description: `alpha_${window} valued at the latest panel price; null when that price is unknown.`,
    });

/** One subnet's burn summary. */
export const SubnetRow = z
  .object({
    netuid: z.number().int().meta({ description: 'Subnet number (reused after deregistration).' }),
    name: z.string().meta({ description: 'Subnet name at the panel block.' }),
    price_tao: z
      .number()
      .nullable()
      .meta({ description: 'Pool price in TAO per alpha at the latest panel block; null when unknown.' }),
    panel_date: z.string().meta({ description: 'UTC day of the latest panel price (YYYY-MM-DD).' }),
    alpha_24h: alpha('24 hours'),
    alpha_7d: alpha('7 days'),
    alpha_30d: alpha('30 days'),
    tao_24h: tao('24h'),
    tao_7d: tao('7d'),
    tao_30d: tao('30d'),
    change_7d_pct: z.number().nullable().meta({
      description: '100 × (last 7 days − previous 7 days) / previous 7 days; null when the previous is 0.',
    }),
    last_burn: z
      .string()
      .nullable()
      .meta({ description: 'Time of the latest burn (ISO 8601 UTC), or null.' }),
    claim: Claim.nullable().meta({ description: 'The latest published claim for the subnet, or null.' }),
    first_burn: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'Time of the earliest collected burn (ISO 8601 UTC), or null.' }),
    observed_burns: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: 'Count of burns over everything collected.' }),
    alpha_observed_total: z
      .number()
      .nullable()
      .optional()
      .meta({ description: 'Burned alpha over everything collected.' }),
    spark7: z
      .array(z.number())
      .default([])
      .meta({ description: 'Daily burned alpha of the 7 UTC days ending with the as_of day, oldest first.' }),
  })
  .meta({ id: 'SubnetRow' });
export type SubnetRow = z.infer<typeof SubnetRow>;
