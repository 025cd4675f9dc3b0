import { z } from 'zod';
import { envelopeShape } from './envelope.js';
import { SubnetRow } from './subnet-row.js';

/** The interface leaves `trend` free-form; these are the members we publish (more may be added). */
export const TrendDay = z
  .object({
    date: z.string().meta({ description: 'UTC day (YYYY-MM-DD).' }),
    alpha: z.number().meta({ description: 'Alpha burned network-wide that day.' }),
    tao: z
      .number()
      .nullable()
      .meta({ description: 'That alpha at each subnet’s own panel price of the day.' }),
    burns: z.number().int().meta({ description: 'Count of burns that day.' }),
  })
  .meta({ id: 'TrendDay' });

export const Trend = z
  .looseObject({
    alpha_7d: z.number().meta({ description: 'Alpha burned network-wide over the trailing 7 days.' }),
    tao_7d: z
      .number()
      .nullable()
      .meta({ description: 'Sum of the subnets’ tao_7d; null when no subnet has a price.' }),
    alpha_prev_7d: z.number().meta({ description: 'Alpha burned over the 7 days before those.' }),
    change_7d_pct: z
      .number()
      .nullable()
      .meta({ description: 'Change of alpha_7d against alpha_prev_7d, in %.' }),
    subnets_burning_7d: z.number().int().meta({ description: 'Subnets with at least one burn in 7 days.' }),
    daily: z
      .array(TrendDay)
      .meta({ description: 'The 30 UTC days ending with the as_of day, oldest first.' }),
  })
  .meta({
    id: 'Trend',
    description: 'Network-wide burn trend (free-form object; these members are always present).',
  });
export type Trend = z.infer<typeof Trend>;

/** The body of GET /api/v1/subnets. */
export const SubnetList = z
  .object({
    ...envelopeShape,
    version: z.string().meta({ description: 'Publication id of the run that produced this snapshot.' }),
    panel_date: z.string().meta({ description: 'UTC day of the latest panel prices (YYYY-MM-DD).' }),
    alerts_date: z
      .string()
      .nullable()
      .meta({ description: 'Date of the latest verified emissions event, or null.' }),
    rows: z.array(SubnetRow),
    trend: Trend,
  })
  .meta({ id: 'SubnetList' });
export type SubnetList = z.infer<typeof SubnetList>;
