import { z } from 'zod';

/** A public SS58 address, 47 or 48 base58 characters starting with `5`; never a seed. */
export const COLDKEY_PATTERN = /^5[1-9A-HJ-NP-Za-km-z]{46,47}$/;

export const Coldkey = z.string().regex(COLDKEY_PATTERN).meta({
  description: 'A public address of 47 or 48 base58 characters starting with `5`; never a secret seed.',
});

const num = (description: string) => z.number().meta({ description });

/**
 * The mechanisms the check names, in the order it lists them: those the pack lists as points to check first,
 * then those it books by its method. What each is and what the pack does with it:
 * `pipeline/tax/products/check-mechanisms.ts`.
 */
export const CHECK_MECHANISM_IDS = [
  'transfer_out',
  'transfer_in',
  'coldkey_swap',
  'liquidity_refund',
  'user_liquidity',
  'crowdloan',
  'lease_dividends',
  'registration',
  'network_registration',
  'transaction_fees',
  'reserved_deposit',
  'own_evm_transfer',
  'evm_staking',
  'dissolution',
  'limit_order',
  'recycle_or_burn',
  'hotkey_swap',
  'auto_stake',
  'root_claim',
] as const;
export type CheckMechanismId = (typeof CHECK_MECHANISM_IDS)[number];

/** One mechanism found in one tax year's events of the coldkey. */
export const CheckMechanism = z
  .object({
    mechanism: z.enum(CHECK_MECHANISM_IDS).meta({
      description:
        'What it is: `transfer_out`, `transfer_in` (TAO or stake sent to or received from another address), ' +
        '`coldkey_swap`, `liquidity_refund` (a user liquidity position closed by the chain), `user_liquidity`, ' +
        '`crowdloan` (contributions, withdrawals, refunds), `lease_dividends` (announced by an event), ' +
        '`registration`, `transaction_fees` (paid in TAO or alpha), `reserved_deposit` (a proxy’s, an ' +
        'identity’s), `own_evm_transfer` (TAO to or from the coldkey’s own EVM address), `evm_staking` (stake through the ' +
        'EVM staking precompile from the coldkey’s own EVM address), `dissolution` (a ' +
        '`registration`, `network_registration` (a network’s lock and its refund), `transaction_fees` (paid in TAO or alpha), `reserved_deposit` (a proxy’s, an ' +
        'identity’s), `own_evm_transfer` (TAO to or from the coldkey’s own EVM address), `dissolution` (a ' +
        'dissolved subnet’s payout), `limit_order`, `recycle_or_burn`, `hotkey_swap`, `auto_stake`, `root_claim`.',
    }),
    name: z.string().meta({ description: 'Its name in words, as the explorer shows it.' }),
    tax_year: z
      .string()
      .regex(/^\d{4}\/\d{2}$/)
      .meta({ description: 'The UK tax year (Europe/London) of these occurrences, `<YYYY>/<YY>`.' }),
    count: z.number().int().min(1).meta({
      description:
        'How many times: the calls (one extrinsic’s events are one) or, outside a call, the chain’s own events.',
    }),
    first_day: z.iso.date().meta({ description: 'The UK day (Europe/London) of the first, `YYYY-MM-DD`.' }),
    last_day: z.iso.date().meta({ description: 'The UK day of the last.' }),
    in_pack: z.enum(['point_to_check', 'booked']).meta({
      description:
        '`point_to_check`: the pack books it and lists it in Points to check for you to confirm (or to correct, ' +
        'e.g. by naming an address as yours); `booked`: the pack books it by its method without a point.',
    }),
    pack: z.string().meta({ description: 'What the pack does with it, in one sentence.' }),
  })
  .meta({ id: 'TaxCheckMechanism' });
export type CheckMechanism = z.infer<typeof CheckMechanism>;

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
    mechanisms: z.array(CheckMechanism).meta({
      description:
        'The mechanisms beside plain staking found in the coldkey’s collected events of the current and the previous ' +
        'UK tax year (`mechanism_window`), one entry per mechanism and tax year, the current year first, then in ' +
        'the order of `mechanism`’s list (points to check first); empty when none. Read from the event shard the ' +
        'last daily collection published, the events a pack reads: what moved with no event the pack reads (a ' +
        'lease dividend before spec 361, paid as TAO with no event naming it) is not here, and the pack’s daily ' +
        'reconciliation lists it as an unexplained difference. An addition to the interface.',
    }),
    mechanism_window: z
      .object({
        from: z.iso.date().meta({
          description:
            'The first UK day read: 6 April of the previous tax year, or the published record’s first day when later.',
        }),
        to: z.iso.date().meta({ description: 'Today (UK).' }),
      })
      .meta({ description: 'The UK days `mechanisms` covers. An addition to the interface.' }),
  })
  .meta({
    id: 'TaxCheck',
    description:
      'A free estimate for one coldkey: a computation tool, not tax advice. Amounts read from the chain are exact ' +
      'to the RAO; computed figures (yields, income, GBP, tax) carry 15 significant digits.',
  });
export type TaxCheck = z.infer<typeof TaxCheck>;
