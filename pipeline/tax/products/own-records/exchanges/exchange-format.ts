/** The exchange exports read, by the name a records file's `format` takes. */
export type ExchangeFormat =
  | 'kraken-ledgers'
  | 'binance-transactions'
  | 'coinbase-transactions'
  | 'kucoin'
  | 'bybit'
  | 'okx'
  | 'gate'
  | 'mexc';
