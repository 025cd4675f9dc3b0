import {
  type ColdkeyEvent,
  ColdkeyShard,
  coldkeyShardOf,
  TaxYields,
  taxPaths,
} from '../../contract/tax-published.js';
import { readManifest } from '../../store/manifest.js';
import type { ObjectStore } from '../../store/object-store.js';
import { readPublishedObject } from '../../store/publication.js';
import { parseUkTaxYear, type UkTaxYear } from '../../time/uk-tax-year.js';

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

/** The published objects a pack reads, from one run (one manifest read), and which run that was. */
export interface PackInputs {
  taxYear: UkTaxYear;
  /** The published run the figures come from; null when nothing is published yet. */
  runVersion: string | null;
  yields: TaxYields | null;
  /** Each coldkey's staking events inside the tax year, in chain order; null when the run has no tax objects. */
  events: Map<string, ColdkeyEvent[] | null>;
}

/**
 * Reads what the pipeline published for the pack (DESIGN: the fulfilment job runs beside the gateway,
 * never beside the warehouse): the network yields and each coldkey's event shard, every object checked
 * against its SHA-256 in the manifest. Objects the run does not have are reported absent, not invented.
 */
export async function readPackInputs(store: ObjectStore, order: PackOrder): Promise<PackInputs> {
  const taxYear = parseUkTaxYear(order.taxYear);
  const manifest = await readManifest(store, '');
  const events = new Map<string, ColdkeyEvent[] | null>();
  if (!manifest) {
    for (const coldkey of order.coldkeys) events.set(coldkey, null);
    return { taxYear, runVersion: null, yields: null, events };
  }
  const read = async (path: string): Promise<unknown> => {
    const object = await readPublishedObject(store, manifest, path);
    return object ? JSON.parse(new TextDecoder().decode(object.body)) : null;
  };
  const yieldsJson = await read(taxPaths.yields());
  const shards = new Map<string, ColdkeyShard | null>();
  for (const coldkey of order.coldkeys) {
    const shard = coldkeyShardOf(coldkey);
    if (!shards.has(shard)) {
      const json = await read(taxPaths.coldkeyShard(shard));
      shards.set(shard, json === null ? null : ColdkeyShard.parse(json));
    }
    // The pipeline publishes a shard only when it holds events: in a run with tax objects, a missing
    // shard means none. A run without them (older pipeline) knows nothing about the coldkey.
    const published = shards.get(shard) ?? (yieldsJson === null ? null : { shard, coldkeys: {} });
    const inYear = (event: ColdkeyEvent) => {
      const ms = Date.parse(event.time);
      return ms >= taxYear.startMs && ms < taxYear.endMs;
    };
    events.set(coldkey, published ? (published.coldkeys[coldkey] ?? []).filter(inYear) : null);
  }
  return {
    taxYear,
    runVersion: manifest.version,
    yields: yieldsJson === null ? null : TaxYields.parse(yieldsJson),
    events,
  };
}
