/** £2 per TAO at every UK day's end of January 2026 (each quote dated the next UTC day): the unit tests' rates. */
import { GbpPrices } from '../../../../pipeline/tax/uk-rules/gbp-prices.js';

export const JANUARY_PRICES = new GbpPrices(
  Array.from({ length: 31 }, (_, i) => ({
    date: `2026-01-${String(i + 1).padStart(2, '0')}`,
    usd: null,
    gbp: '2',
    source: 'test',
  })),
);
