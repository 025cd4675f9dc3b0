import { ChainError, ChainUnavailableError } from '../../pipeline/chain/chain-errors.js';
import {
  ColdkeyShard,
  coldkeyShardOf,
  TaxCalendar,
  TaxFiatPrices,
  TaxYields,
  taxPaths,
} from '../../pipeline/contract/tax-published.js';
import type { ColdkeyChain } from '../../pipeline/tax/chain-record/coldkey-chain.js';
import { ownEvmAccountOf } from '../../pipeline/tax/chain-record/follow-own-evm-stake.js';
import { countTaxYearEvents } from '../../pipeline/tax/chain-record/tax-year-events.js';
import {
  EstimateUnavailableError,
  estimateCheck,
  renderCheck,
} from '../../pipeline/tax/products/estimate-check.js';
import { type LatestTaoPrices, latestTaoPrices } from '../../pipeline/tax/uk-rules/latest-tao-price.js';
import { ukTaxYearOf } from '../../pipeline/time/uk-tax-year.js';
import { HOUR_MS } from '../../pipeline/time/utc-day.js';
import { HttpError } from '../http/http-errors.js';
import type { SnapshotCache } from '../snapshots/snapshot-cache.js';
import { checkCacheKey } from '../state/check-cache-key.js';
import type { GatewayState } from '../state/gateway-state.js';
import { requirePublished } from './snapshot-response.js';

/** A check's answer is cached 24 hours per coldkey. */
export const CHECK_CACHE_MS = 24 * HOUR_MS;
/** How soon to come back when the node is away: a restart or a network blip. */
const CHAIN_RETRY_SECONDS = 30;
/** How soon to come back when the tax data is missing: it arrives with a daily run. */
const DATA_RETRY_SECONDS = 300;

export interface CheckAnswerDeps {
  state: GatewayState;
  burns: SnapshotCache;
  /** Null when the gateway has no node configured: every uncached check is then a 503. */
  chain: ColdkeyChain | null;
  now: () => Date;
  onError: (error: unknown) => void;
}

interface PublishedTaxInputs {
  version: string;
  yields: TaxYields;
  prices: LatestTaoPrices;
  /** The record's first UK day (tax/calendar.json): the income estimate starts no earlier. */
  recordFirstDay: string | null;
}

/**
 * The body of `/tax/check.json` for a canonical address: the cached answer while it lasts, else one
 * chain read (beside one object fetch for the coldkey's event shard, which gives the year's event count
 * and the mechanisms of this tax year and the last) and the estimate over the live
 * run's yields and prices, cached for 24 hours but never past the end of the UK tax year it was made
 * in, so no answer shows last year's `tax_year`. Failures are 503s and are not cached. Nothing here
 * logs the address: error messages passed to `onError` name the failure, never the coldkey.
 */
export function createCheckAnswer(deps: CheckAnswerDeps): (address: string) => Promise<string> {
  let published: PublishedTaxInputs | null = null;

  const taxInputs = (): PublishedTaxInputs => {
    requirePublished(deps.burns);
    const version = deps.burns.manifest!.version;
    if (published?.version === version) return published;
    const read = <T>(path: string, parse: (json: unknown) => T): T => {
      const object = deps.burns.get(path, deps.now().getTime());
      if (!object) {
        throw unavailable(
          'The tax data (yields and prices) has not been published yet; try again after the next daily run.',
          DATA_RETRY_SECONDS,
        );
      }
      try {
        return parse(JSON.parse(new TextDecoder().decode(object.body)));
      } catch (error) {
        deps.onError(new Error(`tax check: published ${path} is not readable: ${messageOf(error)}`));
        throw unavailable('The tax data could not be read; try again later.', DATA_RETRY_SECONDS);
      }
    };
    const yields = read(taxPaths.yields(), (json) => TaxYields.parse(json));
    const prices = read(taxPaths.fiatPrices(), (json) => latestTaoPrices(TaxFiatPrices.parse(json)));
    // Without a calendar (a run published before it existed) the estimate starts at 6 April, as before.
    const calendar = deps.burns.get(taxPaths.calendar(), deps.now().getTime());
    let recordFirstDay: string | null = null;
    if (calendar) {
      const parsed = TaxCalendar.safeParse(JSON.parse(new TextDecoder().decode(calendar.body)));
      recordFirstDay = parsed.success ? (parsed.data.days[0]?.date ?? null) : null;
    }
    published = { version, yields, prices, recordFirstDay };
    return published;
  };

  const readShard = async (address: string): Promise<ColdkeyShard | null> => {
    const body = await deps.burns.fetch(taxPaths.coldkeyShard(coldkeyShardOf(address)));
    return body === null ? null : ColdkeyShard.parse(JSON.parse(new TextDecoder().decode(body)));
  };

  const readHoldings = async (address: string) => {
    if (!deps.chain) throw new ChainUnavailableError('no chain node is configured for the tax check');
    return deps.chain.read(address);
  };

  return async (address) => {
    const now = deps.now();
    const key = checkCacheKey(address);
    const cached = await deps.state.getCachedCheck(key, now);
    if (cached) return cached.body;

    const { yields, prices, recordFirstDay } = taxInputs();
    const year = ukTaxYearOf(now.getTime());
    // The account of the coldkey's own EVM address: its stake through the EVM is the coldkey's own.
    const evmAccount = ownEvmAccountOf(address);
    const [shard, holdings, evmShard] = await Promise.all([
      readShard(address).catch((error: unknown) => {
        deps.onError(new Error(`tax check: the event shard could not be read (${nameOf(error)})`));
        throw unavailable('The tax data could not be read just now; try again in a minute.', 60);
      }),
      readHoldings(address).catch((error: unknown) => {
        if (!(error instanceof ChainError)) throw error;
        deps.onError(new Error(`tax check: chain read failed: ${describeChainError(error)}`));
        throw unavailable(
          'The chain node cannot be reached right now, so the check cannot be made; try again shortly.',
          CHAIN_RETRY_SECONDS,
        );
      }),
      evmAccount === null ? null : readShard(evmAccount).catch(() => null),
    ]);

    let body: string;
    try {
      body = renderCheck(
        estimateCheck({
          coldkey: address,
          holdings,
          yields,
          prices,
          events: countTaxYearEvents(shard, address, year),
          coldkeyEvents: shard?.coldkeys[address] ?? [],
          ownEvmEvents: evmAccount === null ? [] : (evmShard?.coldkeys[evmAccount] ?? []),
          nowMs: now.getTime(),
          recordFirstDay,
        }),
      );
    } catch (error) {
      if (error instanceof EstimateUnavailableError) throw unavailable(error.message, DATA_RETRY_SECONDS);
      throw error;
    }
    const expiresAt = new Date(Math.min(now.getTime() + CHECK_CACHE_MS, year.endMs));
    await deps.state.putCachedCheck({ key, body, computedAt: now, expiresAt });
    return body;
  };
}

function unavailable(detail: string, retryAfterSeconds: number): HttpError {
  return new HttpError(503, detail, { 'Retry-After': String(retryAfterSeconds) });
}

/** The node's URL and what failed are worth logging; the request's parameters never are. */
function describeChainError(error: ChainError): string {
  if (error instanceof ChainUnavailableError) return `${error.name}: ${error.message}`;
  const method = (error as ChainError & { method?: string }).method;
  return method ? `${error.name} in ${method}` : error.name;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
