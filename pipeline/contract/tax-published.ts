import { createHash } from 'node:crypto';
import { z } from 'zod';
import { STAKING_KINDS } from '../chain/staking-event.js';

/**
 * The tax objects the pipeline publishes inside each run, beside the burn snapshots (so they switch with
 * the same manifest, all or nothing), and that the gateway's tax check and the pack builder read. Not part
 * of the public HTTP interface: these are the pipeline's hand-over to the tax side. RAO amounts are decimal
 * strings (u64 and sums exceed 2^53); fiat prices are decimal strings as stored.
 */
const rao = z
  .string()
  .regex(/^-?\d+$/)
  .meta({ description: 'An amount in RAO (10^9 per TAO or alpha), exact.' });
const utcDay = z.iso.date().meta({ description: 'A UTC day, YYYY-MM-DD.' });

/** The days whose end-of-day share prices a yield compares: growth from the end of `from` to the end of `to`. */
export const YieldWindow = z.object({
  from: utcDay,
  to: utcDay,
  /** Days of growth between the two day ends (`to` − `from`); 0 when only one day is collected. */
  days: z.number().int().min(0),
});

export const SubnetYield = z.object({
  netuid: z.number().int().min(0),
  registered_at: z.number().int().min(0),
  /** Simple annual rate as a fraction: the window's stake-weighted share-price growth ÷ days × 365; null when no pool had stake at both ends. */
  yield: z.number().nullable(),
  window: YieldWindow,
  /** Alpha (TAO on root) of the hotkey pools at the window's start: the weights. */
  stake_rao: rao,
  /** The same stake valued in TAO at the subnet's pool price at the window's start (root: equal to stake_rao). */
  stake_tao_rao: rao,
  /** e.g. `chain:share-price:2026-11-15..2026-11-22`. */
  source: z.string(),
});
export type SubnetYield = z.infer<typeof SubnetYield>;

/** `tax/yields.json`: the network's chain-derived staking yields over the last 7 complete UTC days. */
export const TaxYields = z
  .object({
    computed_at: z.iso.datetime(),
    window: YieldWindow,
    source: z.string(),
    /** Root (netuid 0), in TAO. */
    root: z.object({ yield: z.number().nullable(), stake_rao: rao }),
    /** Every subnet but root, weighted by stake valued in TAO. */
    alpha: z.object({ yield: z.number().nullable(), stake_tao_rao: rao }),
    subnets: z.array(SubnetYield),
  })
  .meta({ id: 'TaxYields' });
export type TaxYields = z.infer<typeof TaxYields>;

/**
 * `tax/fiat-prices.json`: TAO in USD and GBP per UTC day (the daily price the pipeline collected), oldest
 * first; `assets`, when present, the same daily quotes of other tokens a buyer's exchange records hold
 * (`USDT`, `USDC`, `BTC`, `ETH`), by their code, from the same source.
 */
const FiatDays = z.array(
  z.object({
    date: utcDay,
    usd: z.string().nullable(),
    gbp: z.string().nullable(),
    source: z.string(),
  }),
);
export const TaxFiatPrices = z
  .object({
    days: FiatDays,
    assets: z.record(z.string().regex(/^[A-Z0-9]{1,20}$/), FiatDays).optional(),
  })
  .meta({ id: 'TaxFiatPrices' });
export type TaxFiatPrices = z.infer<typeof TaxFiatPrices>;

/**
 * `tax/calendar.json`: the last finalized block of every UK day (Europe/London: the day ends at 23:00Z in
 * summer, 24:00Z in winter) that the pipeline has collected to its end, oldest first. The tax pack reads
 * stake at these blocks: a UK day's income is the stake growth between the previous day's block and its own.
 */
export const TaxCalendar = z
  .object({
    time_zone: z.literal('Europe/London'),
    days: z.array(
      z.object({
        /** The UK date, YYYY-MM-DD. */
        date: z.iso.date(),
        /** The day's last block: the last block whose timestamp is before the next UK midnight. */
        last_block: z.number().int().min(0),
        /** That block's timestamp, ISO 8601 UTC. */
        last_block_time: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'TaxCalendar' });
export type TaxCalendar = z.infer<typeof TaxCalendar>;

/** One staking event as it concerns one coldkey (as the origin, or as the receiver of a transfer). */
export const ColdkeyEvent = z.object({
  block: z.number().int(),
  event_index: z.number().int(),
  /** ISO 8601 UTC, the block's timestamp. */
  time: z.iso.datetime(),
  /** The extrinsic (`ApplyExtrinsic(n)` phase) that emitted it: one extrinsic's events are one action; null outside one. */
  extrinsic_index: z.number().int().nullable().optional(),
  kind: z.enum(STAKING_KINDS),
  /** `origin`: this coldkey made the event; `destination`: it received the stake or the TAO. */
  role: z.enum(['origin', 'destination']),
  /**
   * This coldkey's side: where the stake was (origin: the event's hotkey and subnet) or where the received
   * stake now is (destination of a StakeTransferred: the same hotkey on the destination subnet; null for a
   * Transfer). Moves and swaps keep the coldkey, so their counterpart_coldkey is the coldkey itself.
   */
  hotkey: z.string().nullable(),
  netuid: z.number().int().nullable(),
  tao_rao: rao.nullable(),
  alpha_rao: rao.nullable(),
  fee_rao: rao.nullable(),
  /** The other side: the destination of a move, swap or transfer for its origin, the origin for its receiver. */
  counterpart_coldkey: z.string().nullable(),
  counterpart_hotkey: z.string().nullable(),
  counterpart_netuid: z.number().int().nullable(),
  /** Transfer: the netuid whose subnet account paid (an unstake's or a dissolution's TAO) or was paid (a stake's). */
  from_subnet: z.number().int().nullable().optional(),
  to_subnet: z.number().int().nullable().optional(),
  /** Transfer: a dissolved subnet's payout to a holder (its `NetworkRemoved` in the same block). */
  dissolved_netuid: z.number().int().nullable().optional(),
  /** HotkeySwapped, HotkeySwappedOnSubnet: the hotkey the stake moved to. */
  new_hotkey: z.string().nullable().optional(),
  /** LimitOrderExecuted: `LimitBuy` (TAO in, alpha out), `TakeProfit` or `StopLoss` (alpha in, TAO out). */
  order_type: z.string().nullable().optional(),
  /** LiquidityAdded, LiquidityRemoved, LiquidityModified: the position's id (u128, decimal text). */
  position_id: z.string().nullable().optional(),
  /** The same: the liquidity added or taken out (LiquidityModified: negative when taken out). */
  liquidity: z.string().nullable().optional(),
  /** LiquidityRemoved, LiquidityModified: the fees the position paid out, in TAO and in alpha. */
  fee_tao_rao: rao.nullable().optional(),
  fee_alpha_rao: rao.nullable().optional(),
  /** CrowdloanContributed, CrowdloanWithdrew: the crowdloan. */
  crowdloan_id: z.number().int().nullable().optional(),
  /** Transfer: the crowdloan whose funds account paid (a refund or withdrawal) or was paid (a contribution). */
  from_crowdloan: z.number().int().nullable().optional(),
  to_crowdloan: z.number().int().nullable().optional(),
});
export type ColdkeyEvent = z.infer<typeof ColdkeyEvent>;

/** `tax/coldkeys/<shard>.json`: every collected staking event of the coldkeys in one shard, in chain order. */
export const ColdkeyShard = z
  .object({
    shard: z.string(),
    coldkeys: z.record(z.string(), z.array(ColdkeyEvent)),
  })
  .meta({ id: 'ColdkeyShard' });
export type ColdkeyShard = z.infer<typeof ColdkeyShard>;

/** 256 shards by the first byte of SHA-256 of the address: even whatever the addresses' prefixes, and small. */
export function coldkeyShardOf(coldkey: string): string {
  return createHash('sha256').update(coldkey).digest('hex').slice(0, 2);
}

export const taxPaths = {
  yields: () => 'tax/yields.json',
  fiatPrices: () => 'tax/fiat-prices.json',
  calendar: () => 'tax/calendar.json',
  coldkeyShard: (shard: string) => `tax/coldkeys/${shard}.json`,
  /** The prefix the gateway leaves out of its in-memory run and reads one object at a time. */
  coldkeyPrefix: 'tax/coldkeys/',
} as const;
