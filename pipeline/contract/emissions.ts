import { z } from 'zod';
import { Freshness } from './envelope.js';
import { Coverage } from './subnet-history.js';

/**
 * The interface leaves the emissions bodies to us. They share the data envelope's spirit: when the data was
 * observed, how fresh it is, and where the method is described. Amounts are TAO/alpha decimals.
 */
const watchEnvelope = {
  as_of: z.string().meta({ description: 'Time of the latest sampled (finalized) block, ISO 8601 UTC.' }),
  freshness: Freshness.meta({
    description:
      '`current` while the last sample is under 15 minutes old, `stale` after, `unknown` with none.',
  }),
  checked_at: z.string().nullable().meta({ description: 'When the latest sample was taken, or null.' }),
  method_url: z.string(),
};

export const EmissionStatus = z.enum(['flowing', 'suspended']).meta({ id: 'EmissionStatus' });

export const EmissionStatusRow = z
  .object({
    netuid: z.number().int(),
    name: z.string().nullable(),
    registered_at: z
      .number()
      .int()
      .meta({ description: 'Registration block: identifies the subnet behind the netuid.' }),
    status: EmissionStatus,
    emission_enabled: z
      .boolean()
      .nullable()
      .meta({ description: '`SubnetEmissionEnabled` where the runtime has it, else null.' }),
    tao_in_emission: z.number().meta({ description: 'TAO delivered to the pool in the observed block.' }),
    alpha_in_emission: z
      .number()
      .meta({ description: 'Alpha injected into the pool in the observed block.' }),
    alpha_out_emission: z
      .number()
      .meta({ description: 'Alpha emitted to participants in the observed block.' }),
    since_block: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Verifying block of the latest event that set this status, or null.' }),
  })
  .meta({ id: 'EmissionStatusRow' });

/** Body of GET /api/v1/emissions. */
export const EmissionsSnapshot = z
  .object({
    ...watchEnvelope,
    observed_block: z.number().int().nullable().meta({ description: 'The sampled finalized block.' }),
    rows: z.array(EmissionStatusRow),
  })
  .meta({ id: 'EmissionsSnapshot' });
export type EmissionsSnapshot = z.infer<typeof EmissionsSnapshot>;

export const Gap = z
  .object({
    from: z.string().meta({ description: 'Time of the last sample before the gap.' }),
    to: z.string().meta({ description: 'Time of the first sample after the gap (or the window end).' }),
    from_block: z.number().int().nullable(),
    to_block: z.number().int().nullable(),
  })
  .meta({ id: 'Gap', description: 'A period with no sample where one was due.' });

export const EmissionEvent = z
  .object({
    netuid: z.number().int(),
    registered_at: z.number().int(),
    kind: z.enum(['suspended', 'restored']),
    from_block: z.number().int().meta({ description: 'Last sampled block with the old status.' }),
    to_block: z.number().int().meta({ description: 'First sampled block with the new status.' }),
    detected_block: z.number().int(),
    detected_at: z.string(),
    verified_block: z.number().int().meta({ description: 'The next sample, at a later block, agreeing.' }),
    verified_at: z.string(),
  })
  .meta({ id: 'EmissionEvent', description: 'A verified transition: two consecutive samples agree.' });

const coverageShape = {
  coverage: Coverage,
  collection_began: z.string().nullable().meta({ description: 'Time of the first sample ever taken.' }),
  gaps: z.array(Gap),
};

/** Body of GET /api/v1/emissions/events. */
export const EmissionEvents = z
  .object({
    ...watchEnvelope,
    ...coverageShape,
    days: z.number().int(),
    netuid: z.number().int().nullable(),
    page_size: z.number().int(),
    next_before_block: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Pass as `before_block` for the next (older) page; null on the last page.' }),
    events: z.array(EmissionEvent).meta({ description: 'Newest first.' }),
  })
  .meta({ id: 'EmissionEvents' });
export type EmissionEvents = z.infer<typeof EmissionEvents>;

export const EmissionSample = z
  .object({
    block: z.number().int(),
    time: z.string(),
    status: EmissionStatus,
    tao_in_emission: z.number(),
    alpha_in_emission: z.number(),
    alpha_out_emission: z.number(),
  })
  .meta({ id: 'EmissionSample' });

/** Body of GET /api/v1/emissions/{netuid}/history: samples, not payment totals; gaps stay gaps. */
export const EmissionHistory = z
  .object({
    ...watchEnvelope,
    ...coverageShape,
    netuid: z.number().int(),
    days: z.number().int(),
    resolution: z.enum(['hourly', 'daily']),
    rows: z
      .array(EmissionSample)
      .meta({ description: 'One sample per hour (7 days) or per day, oldest first.' }),
  })
  .meta({ id: 'EmissionHistory' });
export type EmissionHistory = z.infer<typeof EmissionHistory>;
