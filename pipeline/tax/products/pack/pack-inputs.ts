import { snapshotPaths } from '../../../contract/snapshot-paths.js';
import {
  ColdkeyShard,
  coldkeyShardOf,
  TaxCalendar,
  TaxFiatPrices,
  taxPaths,
} from '../../../contract/tax-published.js';
import { readManifest } from '../../../store/manifest.js';
import type { ObjectStore } from '../../../store/object-store.js';
import { readPublishedObject } from '../../../store/publication.js';
import { parseUkTaxYear, type UkTaxYear } from '../../../time/uk-tax-year.js';
import {
  type FollowedSwap,
  followColdkeySwaps,
  type RecordEvent,
} from '../../chain-record/follow-coldkey-swaps.js';
import { followOwnEvmStake, type OwnEvmAccount } from '../../chain-record/follow-own-evm-stake.js';

/** What a pack is built for: the parts of an order the pack needs (the gateway's record fits). */
export interface PackOrder {
  id: string;
  sku: string;
  packName: string;
  taxYear: string;
  coldkeys: readonly string[];
  /** The pack is "as at" its payment: the one time written into it, so a rebuild gives the same bytes. */
  paidAt: Date | null;
}

/** The published objects a pack reads, all from one run (one manifest read). */
export interface PackInputs {
  taxYear: UkTaxYear;
  runVersion: string;
  calendar: TaxCalendar['days'];
  fiat: TaxFiatPrices['days'];
  /** Other tokens' daily prices (`tax/fiat-prices.json` `assets`): a buyer's exchange rows are valued at them. */
  fiatAssets?: NonNullable<TaxFiatPrices['assets']>;
  /** Every collected event of the order's coldkeys (any year), in chain order, each once. */
  events: RecordEvent[];
  /** Subnet names of the run's subnet list, by netuid (the current registration's name). */
  subnetNames: Map<number, string>;
  /** The order's coldkeys and every coldkey a coldkey swap of theirs handed the holdings to. */
  coldkeys: string[];
  /** Each coldkey swap the record followed. */
  followed: FollowedSwap[];
  /** The accounts of the coldkeys' own EVM addresses that staked, taken in as coldkeys (follow-own-evm-stake.ts). */
  ownEvm?: OwnEvmAccount[];
}

export class PackInputsMissingError extends Error {
  override name = 'PackInputsMissingError';
}

/**
 * Reads what the pipeline published for the pack (DESIGN: the fulfilment job runs beside the gateway,
 * never beside the warehouse): the UK day calendar, the fiat prices, each coldkey's event shard and the
 * subnet names, every object checked against its SHA-256 in the manifest. A run without a calendar or
 * prices cannot make a pack: the build fails and the job tries again after the next publication.
 */
export async function readPackInputs(
  store: ObjectStore,
  order: PackOrder,
  /** Told the calendar as soon as it is read, before the events (a build starts its day reads). */
  onCalendar?: (calendar: PackInputs['calendar'], taxYear: UkTaxYear) => void,
): Promise<PackInputs> {
  const taxYear = parseUkTaxYear(order.taxYear);
  const manifest = await readManifest(store, '');
  if (!manifest) throw new PackInputsMissingError('nothing is published yet: no pack can be built');
  const read = async (path: string): Promise<unknown> => {
    const object = await readPublishedObject(store, manifest, path);
    return object ? JSON.parse(new TextDecoder().decode(object.body)) : null;
  };
  const calendarJson = await read(taxPaths.calendar());
  const fiatJson = await read(taxPaths.fiatPrices());
  if (calendarJson === null || fiatJson === null) {
    throw new PackInputsMissingError(
      `published run ${manifest.version} has no tax/calendar.json or tax/fiat-prices.json (published by an older pipeline)`,
    );
  }
  const calendar = TaxCalendar.parse(calendarJson).days;
  onCalendar?.(calendar, taxYear);
  // The coldkey-swap rule is the chain record's (`chain-record/follow-coldkey-swaps.ts`); here, where the
  // events are read from: each coldkey's list in its published shard, each shard read once.
  const shards = new Map<string, ColdkeyShard | null>();
  const eventsOf = async (coldkey: string) => {
    const shard = coldkeyShardOf(coldkey);
    if (!shards.has(shard)) {
      const json = await read(taxPaths.coldkeyShard(shard));
      // Only shards holding events are published: a missing one means none.
      shards.set(shard, json === null ? null : ColdkeyShard.parse(json));
    }
    return shards.get(shard)?.coldkeys[coldkey] ?? [];
  };
  const record = await followColdkeySwaps(order.coldkeys, eventsOf);
  const ownEvm = await followOwnEvmStake(record, eventsOf);
  const subnetNames = new Map<number, string>();
  const list = (await read(snapshotPaths.subnetList())) as {
    rows?: Array<{ netuid: number; name: string }>;
  } | null;
  for (const row of list?.rows ?? []) subnetNames.set(row.netuid, row.name);
  return {
    taxYear,
    runVersion: manifest.version,
    calendar,
    ...fiatOf(TaxFiatPrices.parse(fiatJson)),
    events: record.events,
    coldkeys: record.coldkeys,
    followed: record.followed,
    ...(ownEvm.length > 0 ? { ownEvm } : {}),
    subnetNames,
  };
}

/** The published prices: TAO's days, and the other tokens' when the run published them. */
function fiatOf(prices: TaxFiatPrices): {
  fiat: TaxFiatPrices['days'];
  fiatAssets?: NonNullable<TaxFiatPrices['assets']>;
} {
  return { fiat: prices.days, ...(prices.assets ? { fiatAssets: prices.assets } : {}) };
}
