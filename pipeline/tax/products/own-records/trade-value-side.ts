/**
 * Which side of a trade of two tokens gives its value in pounds when the record gives none. HMRC asks for a
 * reasonable valuation by a consistent method (CRYPTO23000); the pack values the side whose market price is
 * the surer one: a stablecoin or a large token before TAO or alpha, in BittyTax's order of preference (its
 * config `trade_asset_type: 2`, the default, with `crypto_list` USDT, USDC, BTC, ETH, BNB), so that a trade
 * of TAO for USDT has the value BittyTax gives it from the same daily rates. Between two sides of equal
 * standing (neither listed) the side sold is valued, as BittyTax does.
 */
import { isFiat } from './record-asset.js';

/** The tokens whose price values a trade before any other's, first first. */
export const VALUE_FIRST = ['USDT', 'USDC', 'BTC', 'ETH', 'BNB'] as const;

/** Lower ranks value a trade first: money, then the listed tokens, then every other token (TAO, alpha). */
export function valueRank(asset: string): number {
  const code = asset.trim().toUpperCase();
  if (isFiat(code)) return -1;
  const index = (VALUE_FIRST as readonly string[]).indexOf(code);
  return index === -1 ? VALUE_FIRST.length : index;
}

/** Whether `asset` is a token a trade's other side should be valued against rather than itself. */
export function valuesBefore(asset: string, other: string): boolean {
  return valueRank(asset) < valueRank(other);
}

/**
 * The side that values a trade of `sold` for `bought`: the one of lower rank, the side sold when equal.
 */
export function valuedSide(sold: string, bought: string): 'sold' | 'bought' {
  return valueRank(bought) < valueRank(sold) ? 'bought' : 'sold';
}
