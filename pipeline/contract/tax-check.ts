import { z } from 'zod';

/** Spec 4.3: a public SS58 address, 47 or 48 base58 characters starting with `5`; never a seed. */
export const COLDKEY_PATTERN = /^5[1-9A-HJ-NP-Za-km-z]{46,47}$/;

export const Coldkey = z.string().regex(COLDKEY_PATTERN).meta({
  description: 'A public address of 47 or 48 base58 characters starting with `5`; never a secret seed.',
});

const num = (description: string) => z.number().meta({ description });

/** Spec 2.9: body of GET /tax/check.json. An estimate, not tax advice. */
export const TaxCheck = z
  .object({
    state: z.string().meta({ description: 'Status of the check; `ok` on success.' }),
    coldkey: z.string().meta({ description: 'The address queried.' }),
    staked_tao: num('Total staked TAO (root plus alpha valued at pool price).'),
    root_tao: num('TAO staked in the root subnet.'),
    alpha_as_tao: num('Alpha positions valued as TAO at pool price.'),
    free_tao: num('Unstaked TAO.'),
    events: z.number().int().meta({ description: 'Count of staking events of the coldkey this tax year.' }),
    tax_year: z
      .string()
      .regex(/^\d{4}\/\d{2}$/)
      .meta({ description: 'UK tax year, `<YYYY>/<YY>`.' }),
    yield: num('Overall yield as a fraction.'),
    yield_root: num('Root yield as a fraction.'),
    yield_alpha: num('Alpha yield as a fraction.'),
    yield_source: z.string().meta({ description: 'Origin of the yield figure.' }),
    alpha_yield_source: z.string().meta({ description: 'Origin of the alpha yield figure.' }),
    tao_gbp: num('TAO price in GBP.'),
    tao_usd: num('TAO price in USD.'),
    income_tao: num('Estimated emissions income this tax year, in TAO.'),
    income_gbp: num('The same in GBP.'),
    tax40: num('Estimated tax at 40%.'),
    tax45: num('Estimated tax at 45%.'),
    staked_gbp: num('Staked value in GBP.'),
  })
  .meta({ id: 'TaxCheck' });
export type TaxCheck = z.infer<typeof TaxCheck>;
