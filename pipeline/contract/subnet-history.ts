import { z } from 'zod';
import { envelopeShape } from './envelope.js';

/** One UTC day of a subnet's burns. */
export const HistoryDay = z
  .object({
    date: z.string().meta({ description: 'The UTC day (YYYY-MM-DD).' }),
    alpha: z.number().meta({ description: 'Burned alpha that day.' }),
    burns: z.number().int().meta({ description: 'Count of burns.' }),
    tao: z
      .number()
      .nullable()
      .meta({ description: 'Alpha valued at that day’s panel price; null when unpriced.' }),
    unpriced_burns: z.number().int().meta({ description: 'Burns without a price.' }),
    partial_day: z.boolean().meta({ description: 'True for the current, incomplete UTC day.' }),
  })
  .meta({ id: 'HistoryDay' });
export type HistoryDay = z.infer<typeof HistoryDay>;

export const Coverage = z.enum(['complete', 'partial']).meta({
  id: 'Coverage',
  description: '`complete` when every day of the window was collected, else `partial`.',
});

/** The body of the history endpoint (`/api/v1/subnets/{netuid}/history`). */
export const SubnetHistory = z
  .object({
    ...envelopeShape,
    netuid: z.number().int(),
    days: z.number().int().meta({ description: 'The window length returned.' }),
    coverage: Coverage,
    rows: z.array(HistoryDay),
  })
  .meta({ id: 'SubnetHistory' });
export type SubnetHistory = z.infer<typeof SubnetHistory>;

/** The CSV form of a history: the same rows and values, an empty field for null. */
export const HISTORY_CSV_COLUMNS = [
  'date',
  'alpha',
  'burns',
  'tao',
  'unpriced_burns',
  'partial_day',
] as const;
