import { z } from 'zod';

/** A public SS58 address, 47 or 48 base58 characters starting with `5`; never a seed. */
export const COLDKEY_PATTERN = /^5[1-9A-HJ-NP-Za-km-z]{46,47}$/;

export const Coldkey = z.string().regex(COLDKEY_PATTERN).meta({
  description: 'A public address of 47 or 48 base58 characters starting with `5`; never a secret seed.',
});

const num = (description: string) => z.number().meta({ description });

/**
 * The body of GET /tax/check.json. An estimate from one chain read at the finalized head and the network
 * yields the pipeline published; a computation tool, not tax advice. The method and the rounding are in
 * `pipeline/tax/products/estimate-check.ts`; these descriptions are what the OpenAPI document says.
 */
export const TaxCheck = z
  .object({
    state: z.string().meta({
      description:
        '`ok`; `empty` for a valid address with no stake and no free balance (figures 0; yields still the network’s).',
    }),
    coldkey: z.string().meta({ description: 'The address queried (SS58, Bittensor prefix 42).' }),
    staked_tao: num('Total staked TAO: `root_tao` + `alpha_as_tao`. Exact to the RAO (9 decimals).'),
    root_tao: num('TAO staked on the root subnet (netuid 0), at the finalized head. Exact to the RAO.'),
    alpha_as_tao: num(
      'Each alpha position valued in TAO at its subnet pool’s price (`SubnetTAO` / `SubnetAlphaIn` at the same ' +
        'block), truncated to the RAO per position, summed; a subnet without a pool values at 0. Not an execution price.',
    ),
    free_tao: num('Unstaked TAO: the free balance of `System.Account`. Exact to the RAO.'),
    events: z
      .number()
      .int()
      .meta({
        description:
          'The coldkey’s staking events (stake added, removed, moved, transferred, swapped; TAO transfers) in the ' +
          'current UK tax year, as the last daily collection published them; 0 when none.',
      }),
    tax_year: z
      .string()
      .regex(/^\d{4}\/\d{2}$/)
      .meta({
        description:
          'The UK tax year containing now (6 April to 5 April, Europe/London time), as `<YYYY>/<YY>`, e.g. `2026/27`.',
      }),
    yield: num(
      'Overall yield as a simple annual fraction: root and alpha yields weighted by the TAO value staked in each ' +
        '(the root yield when nothing is staked).',
    ),
    yield_root: num(
      'The network’s root yield: stake-weighted growth of the root hotkey share prices over the last 7 complete ' +
        'UTC days, as a simple annual fraction (÷ days × 365).',
    ),
    yield_alpha: num(
      'The yields of the subnets held, weighted by the TAO value held in each; a held subnet without its own yield ' +
        'takes the all-subnet alpha yield; holding no alpha, the all-subnet alpha yield.',
    ),
    yield_source: z.string().meta({
      description:
        'Where the yields come from, e.g. `chain:share-price:2026-11-15..2026-11-22` (the 7-day window).',
    }),
    alpha_yield_source: z.string().meta({
      description:
        'Where the alpha yield comes from: the window as in `yield_source` when every held subnet has its own ' +
        'yield; `…+all-subnets` when some took the all-subnet figure; `…:all-subnets` when no alpha is held.',
    }),
    tao_gbp: num('TAO price in GBP: the latest daily price the pipeline published.'),
    tao_gbp_at: z.iso.datetime().meta({
      description:
        'When the `tao_gbp` quote was taken, ISO 8601 UTC: the start (00:00 UTC) of the day the pipeline published ' +
        'it for (a day’s price is its first quote at or after 00:00 UTC). An addition to the interface.',
    }),
    tao_usd: num('TAO price in USD: the latest daily price the pipeline published.'),
    income_tao: num(
      'Estimated emissions income this tax year to now, in TAO: `staked_tao` × `yield` × the length of ' +
        '`income_window` (from its start to now) ÷ the length of the tax year. Assumes today’s stake was held over ' +
        'the window at today’s yield; not the income actually received (the pack gives that, day by day).',
    ),
    income_gbp: num(
      '`income_tao` × `tao_gbp`: valued at today’s price, not at each day’s (see `income_basis`).',
    ),
    income_basis: z.literal('current_price_estimate').meta({
      description:
        'How the income is valued: `current_price_estimate`, today’s stake and yield extrapolated over ' +
        '`income_window` and valued at the latest price (`tao_gbp`, taken at `tao_gbp_at`). The pack values each ' +
        'UK day’s income at that day’s price instead. An addition to the interface.',
    }),
    income_window: z
      .object({
        from: z.iso.date().meta({
          description:
            'The first UK day (Europe/London) counted: 6 April, or the day after the published record’s first ' +
            'day when the record starts later (the estimate is extrapolated from that start, as the pack is).',
        }),
        to: z.iso.date().meta({ description: 'Today (UK), counted up to now.' }),
      })
      .meta({ description: 'The days `income_tao` covers. An addition to the interface.' }),
    yield_window: z
      .object({
        from: z.iso.date().meta({ description: 'The UTC day whose end the share-price growth starts from.' }),
        to: z.iso.date().meta({ description: 'The UTC day whose end it runs to.' }),
      })
      .meta({
        description:
          'The days the yields were measured over (`yield_source` names them too). An addition to the interface.',
      }),
    tax40: num('Estimated income tax at the 40% higher rate: `income_gbp` × 0.40.'),
    tax42: num(
      'Estimated income tax at the 42% Scottish higher rate: `income_gbp` × 0.42. An addition to the interface.',
    ),
    tax45: num(
      'Estimated income tax at 45% (the additional rate, and the Scottish advanced rate): `income_gbp` × 0.45.',
    ),
    tax48: num(
      'Estimated income tax at the 48% Scottish top rate: `income_gbp` × 0.48. An addition to the interface.',
    ),
    staked_gbp: num('`staked_tao` × `tao_gbp`.'),
  })
  .meta({
    id: 'TaxCheck',
    description:
      'A free estimate for one coldkey: a computation tool, not tax advice. Amounts read from the chain are exact ' +
      'to the RAO; computed figures (yields, income, GBP, tax) carry 15 significant digits.',
  });
export type TaxCheck = z.infer<typeof TaxCheck>;
