import { z } from 'zod';

/** A dated published buyback claim. Claims are not verified revenue. */
export const Claim = z
  .object({
    text: z.string().meta({ description: 'The claim as published.' }),
    name_at_source: z
      .string()
      .nullable()
      .meta({ description: 'The subnet name the source used, or null when it named none.' }),
    source: z.string().meta({ description: 'Address of the publication.' }),
    reviewed: z
      .string()
      .nullable()
      .meta({ description: 'Date the claim was reviewed (YYYY-MM-DD), or null.' }),
  })
  .meta({ id: 'Claim', description: 'A dated published buyback claim; not verified revenue.' });
export type Claim = z.infer<typeof Claim>;
