import { z } from 'zod';

/** The fields every data snapshot (list, detail, history) carries. */
export const Freshness = z.enum(['current', 'stale', 'unknown']).meta({
  id: 'Freshness',
  description:
    '`current` while the last completed collection is under 26 hours old, `stale` after, `unknown` when no collection completed.',
});

export type Freshness = z.infer<typeof Freshness>;

export const envelopeShape = {
  as_of: z.string().meta({ description: 'End of the calculation window (ISO 8601 UTC).' }),
  freshness: Freshness,
  burns_checked_at: z
    .string()
    .nullable()
    .meta({ description: 'Most recent completed collection (ISO 8601 UTC), or null when unknown.' }),
  valuation: z.string().meta({ description: 'How TAO values were derived.' }),
  method_url: z.string().meta({ description: 'Address of the method description.' }),
};

export const Envelope = z.object(envelopeShape).meta({ id: 'Envelope' });
export type Envelope = z.infer<typeof Envelope>;
