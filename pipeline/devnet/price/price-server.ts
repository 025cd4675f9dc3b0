import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Currency, priceSeries, SANDBOX_TOKENS, taoPrice, tokenSeries } from './price-series.js';

const SUPPLY_TAO = 8_000_000;

/**
 * A CoinGecko-style price API over the synthetic series, answering in CoinGecko's documented shapes:
 * `GET /api/v3/coins/bittensor/market_chart/range?vs_currency=usd|gbp&from=<unix s>&to=<unix s>` (and the
 * same for `tether`, `usd-coin`, `bitcoin` and `ethereum`, the tokens `sbm prices fetch` reads beside TAO),
 * `GET /api/v3/simple/price?ids=bittensor&vs_currencies=usd,gbp` and `GET /api/v3/ping`.
 */
export class PriceServer {
  readonly #seed: string;
  readonly #now: () => number;
  #server: Server | undefined;

  constructor(seed: string, now: () => number) {
    this.#seed = seed;
    this.#now = now;
  }

  async listen(host: string, port: number): Promise<number> {
    const server = createServer((request, response) => this.#handle(request, response));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const [status, body] = this.answer(request.method ?? 'GET', request.url ?? '/');
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  }

  /** Status and JSON body for a request; pure apart from the clock. */
  answer(method: string, path: string): [number, unknown] {
    const url = new URL(path, 'http://sandbox');
    if (method !== 'GET') return [405, { error: 'method not allowed' }];
    if (url.pathname === '/api/v3/ping') return [200, { gecko_says: '(V3) To the Moon!' }];
    if (url.pathname === '/api/v3/simple/price') {
      if (!(url.searchParams.get('ids') ?? '').split(',').includes('bittensor')) return [200, {}];
      const currencies = (url.searchParams.get('vs_currencies') ?? '').split(',').filter(isCurrency);
      const now = this.#now();
      return [
        200,
        { bittensor: Object.fromEntries(currencies.map((c) => [c, taoPrice(this.#seed, c, now)])) },
      ];
    }
    const chart = /^\/api\/v3\/coins\/([a-z-]+)\/market_chart\/range$/.exec(url.pathname);
    const coin = chart?.[1];
    if (coin !== undefined && (coin === 'bittensor' || coin in SANDBOX_TOKENS)) {
      const currency = url.searchParams.get('vs_currency') ?? '';
      const fromText = url.searchParams.get('from');
      const toText = url.searchParams.get('to');
      const from = Number(fromText);
      const to = Number(toText);
      if (!isCurrency(currency)) return [400, { error: 'invalid vs_currency' }];
      if (
        fromText === null ||
        toText === null ||
        !Number.isFinite(from) ||
        !Number.isFinite(to) ||
        to < from
      ) {
        return [400, { error: 'invalid from/to: unix seconds, from <= to' }];
      }
      // Like CoinGecko, no prices after now.
      const end = Math.min(to * 1000, this.#now());
      const prices =
        coin === 'bittensor'
          ? priceSeries(this.#seed, currency, from * 1000, end)
          : tokenSeries(this.#seed, coin, currency, from * 1000, end);
      return [
        200,
        {
          prices,
          market_caps: prices.map(([t, p]) => [t, Math.round(p * SUPPLY_TAO * 100) / 100]),
          total_volumes: prices.map(([t, p]) => [t, Math.round(p * 150_000 * 100) / 100]),
        },
      ];
    }
    return [404, { error: 'coin not found' }];
  }
}

function isCurrency(value: string): value is Currency {
  return value === 'usd' || value === 'gbp';
}
