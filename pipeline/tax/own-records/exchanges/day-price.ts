/**
 * A token's price in pounds from the export's own trades. An exchange's export gives no value for a staking
 * reward or a withdrawal fee in tokens, and the pack looks up no price for the buyer's records; the price
 * the same exchange traded that token at against pounds on the same UK day (Europe/London) is a market
 * value the file itself shows. The trade nearest in time that day is taken. Without one the row is refused
 * and the reason says how to give its value.
 */
import type { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import type { OwnRecord } from '../customer-inputs.js';

export interface PricedTrade {
  at: Date;
  asset: string;
  /** Pounds per token, the fee not included. */
  price: Decimal;
}

/** Buys and sells against pounds (their `gbp` is what was paid or received), as prices. */
export function pricedTrades(records: readonly OwnRecord[]): PricedTrade[] {
  return records
    .filter((r) => (r.kind === 'buy' || r.kind === 'sell') && r.gbp !== null && r.quantity.gt(0))
    .map((r) => ({ at: r.at, asset: r.asset, price: r.gbp!.div(r.quantity) }));
}

/** The price of `asset` at `at` from a trade of the same UK day, or null when the file has none. */
export function dayPrice(trades: readonly PricedTrade[], asset: string, at: Date): Decimal | null {
  const day = ukDay(at.getTime());
  let best: PricedTrade | null = null;
  for (const trade of trades) {
    if (trade.asset !== asset || ukDay(trade.at.getTime()) !== day) continue;
    const distance = Math.abs(trade.at.getTime() - at.getTime());
    if (best === null || distance < Math.abs(best.at.getTime() - at.getTime())) best = trade;
  }
  return best?.price ?? null;
}

export function noDayPrice(what: string, asset: string, at: Date, exchange: string): string {
  return `${what} has no value in pounds: the ${exchange} export gives none, and no trade of ${asset} against GBP in this file on ${ukDay(at.getTime())} (UK day) gives a price; give this row in a plain-format file (time_utc,type,asset,quantity,gbp_value) with its value and remove it here`;
}
