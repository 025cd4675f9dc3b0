/**
 * The assets of the buyer's records. The pack pools TAO and each subnet's alpha, named as it names them for
 * other tools: `TAO`, `SN12-ALPHA`, `SN12-ALPHA-R<block>` for a netuid registered again (a new token), and
 * every other token by its code (`USDT`, `BTC`: a cryptoasset for HMRC, a stablecoin too, CRYPTO10100), each
 * its own pool. Text that is neither a token's code nor a currency is refused rather than dropped. Fiat
 * currencies are read only as the money side of a trade: what was paid or received for the token.
 */

/** Currencies read as money (the side of a trade that gives its value), never pooled. */
export const FIAT = new Set(['GBP', 'USD', 'EUR', 'CHF', 'CAD', 'AUD', 'NZD', 'JPY', 'SGD', 'HKD']);

const ALPHA = /^SN(\d{1,5})-ALPHA(?:-R(\d{1,12}))?$/;

/** The pooled asset's name, upper case and canonical; null when the text is not TAO or an alpha. */
export function pooledAsset(text: string): string | null {
  const name = text.trim().toUpperCase();
  if (name === 'TAO') return 'TAO';
  const alpha = ALPHA.exec(name);
  if (!alpha) return null;
  const netuid = Number(alpha[1]);
  if (netuid > 65_535) return null;
  // R0 is the first registration, which the pack names without a suffix.
  const block = alpha[2] === undefined ? 0 : Number(alpha[2]);
  return block === 0 ? `SN${netuid}-ALPHA` : `SN${netuid}-ALPHA-R${block}`;
}

/**
 * Whether the asset is one the chain record holds (TAO, a subnet's alpha), whose arrivals and departures
 * pair with the chain's transfers; any other token (USDT, BTC) moves only between exchanges and wallets.
 */
export function isChainAsset(text: string): boolean {
  const name = text.trim();
  return pooledAsset(name) !== null || /^alpha:\d+:\d+$/.test(name);
}

/**
 * Another token by its code (`USDT`, `BTC`: an exchange export's, or a pack's pools.csv row of one), upper
 * case; null for money and for text that is no token's code (letters and digits, as tickers are).
 */
export function tokenCode(text: string): string | null {
  const code = text.trim().toUpperCase();
  return isFiat(code) || !/^[A-Z0-9]{1,20}$/.test(code) ? null : code;
}

export function isFiat(text: string): boolean {
  return FIAT.has(text.trim().toUpperCase());
}

export function unknownAsset(text: string): string {
  const name = text.trim();
  return `unknown asset ${name === '' ? '(empty)' : `"${name.slice(0, 20)}"`}: neither a token (TAO, SN12-ALPHA, or another token by its code: USDT, BTC) nor a currency; keep only the rows of tokens and money`;
}

/** One side of a trade: a pooled token, money, or something the pack does not read. */
export type Side = { pooled: string } | { fiat: string } | { unknown: string };

export function side(text: string): Side {
  // TAO, alpha, or another token by its code (USDT, BTC): each its own pool.
  const pooled = pooledAsset(text) ?? tokenCode(text);
  if (pooled !== null) return { pooled };
  if (isFiat(text)) return { fiat: text.trim().toUpperCase() };
  return { unknown: text };
}

export function moneyOnly(code: string): string {
  return `${code} is read only as the money side of a trade of TAO or alpha: keep only the rows of TAO and alpha`;
}

/** The point listed for a deposit or withdrawal of money, which is skipped: it moves no token. */
export function moneySkipped(code: string, what: 'deposit' | 'withdrawal'): string {
  return `a ${what} of ${code} (money, not a token): skipped, as it changes no pool`;
}
