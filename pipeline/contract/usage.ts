import { z } from 'zod';

/**
 * Body of `GET /api/v1/usage` (an addition to the interface, like OpenRouter's key endpoint): the calling
 * key's account standing in the current billing period. Read with the key itself and not counted against the
 * allowance. Times are ISO 8601 UTC.
 */
export const ApiUsage = z
  .object({
    limit: z.number().int().meta({ description: 'Successful requests allowed in the billing period.' }),
    used: z.number().int().meta({ description: 'Successful requests counted so far in the period.' }),
    remaining: z.number().int().meta({ description: '`limit - used`, never below 0.' }),
    reset: z.string().meta({ description: 'When the allowance resets: the end of the paid period.' }),
    period_start: z.string(),
    period_end: z.string(),
    keys: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          prefix: z.string().meta({ description: 'The visible start of the key.' }),
          last_four: z.string(),
          status: z.enum(['active', 'revoked', 'expired']),
          used: z
            .number()
            .int()
            .meta({ description: 'Successful requests of this key since the UTC day the period started.' }),
          last_used_at: z.string().nullable(),
          current: z.boolean().meta({ description: 'Whether this is the key that made the request.' }),
        }),
      )
      .meta({ description: "The account's keys (up to 3 active), with their use this period." }),
  })
  .meta({ id: 'ApiUsage' });

export type ApiUsage = z.infer<typeof ApiUsage>;
