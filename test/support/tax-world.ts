/**
 * The published sandbox world as the tax check reads it: its live run with the tax objects (yields,
 * fiat prices, per-coldkey event shards). When the shared run lacks them (the pipeline half not yet
 * publishing them), a copy of the run is republished in a temp folder with stand-in tax objects made
 * from the truth, valid by the contract schemas.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ColdkeyEvent,
  ColdkeyShard,
  coldkeyShardOf,
  TaxFiatPrices,
  TaxYields,
  taxPaths,
} from '../../pipeline/contract/tax-published.js';
import {
  FolderObjectStore,
  publishRun,
  type RunObject,
  readManifest,
  readPublishedObject,
} from '../../pipeline/store/index.js';
import { type PublishedSandbox, publishedSandbox } from './published-sandbox.js';

export interface TaxWorld extends PublishedSandbox {
  /** The folder store whose live run holds the tax objects. */
  taxStoreDir: string;
  /** Whether they are the pipeline's own (false: stand-ins made here). */
  published: boolean;
}

const encoder = new TextEncoder();
const json = (value: unknown) => encoder.encode(JSON.stringify(value));

export async function taxWorld(): Promise<TaxWorld> {
  const world = await publishedSandbox();
  const store = new FolderObjectStore(world.storeDir);
  const manifest = await readManifest(store, '');
  if (!manifest) throw new Error('the published sandbox has no manifest');
  const yields = await readPublishedObject(store, manifest, taxPaths.yields());
  if (yields && usable(JSON.parse(new TextDecoder().decode(yields.body)))) {
    return { ...world, taxStoreDir: world.storeDir, published: true };
  }
  const dir = await mkdtemp(join(tmpdir(), 'sbm-tax-world-'));
  const objects: RunObject[] = [];
  for (const entry of manifest.objects) {
    if (entry.path.startsWith('tax/')) continue;
    const object = await readPublishedObject(store, manifest, entry.path);
    if (object) objects.push({ path: entry.path, body: object.body, contentType: object.contentType });
  }
  objects.push(...standInTaxObjects(world));
  const { created_at: _created, objects: _objects, version: _version, ...meta } = manifest;
  await publishRun(new FolderObjectStore(dir), {
    prefix: '',
    objects,
    meta,
    now: new Date(manifest.created_at),
  });
  return { ...world, taxStoreDir: dir, published: false };
}

/** Published yields the check can use: the network's root and alpha figures are known. */
function usable(json: unknown): boolean {
  const parsed = TaxYields.safeParse(json);
  return parsed.success && parsed.data.root.yield !== null && parsed.data.alpha.yield !== null;
}

function standInTaxObjects(world: PublishedSandbox): RunObject[] {
  const { truth } = world;
  const last = truth.days.at(-1)!.date;
  const first = truth.days.at(-8)!.date;
  const window = { from: first, to: last, days: 7 };
  const source = `chain:share-price:${first}..${last}`;
  const alive = truth.panel_prices.filter((p) => p.date === last && p.netuid !== 0);
  const yields = TaxYields.parse({
    computed_at: new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString(),
    window,
    source,
    root: { yield: 0.041, stake_rao: '1000000000000' },
    alpha: { yield: 0.137, stake_tao_rao: '1000000000000' },
    subnets: alive.map((p, i) => ({
      netuid: p.netuid,
      registered_at: p.registered_at,
      // Every third subnet without a yield, so the all-subnet fallback is exercised.
      yield: i % 3 === 2 ? null : 0.08 + p.netuid / 100,
      window,
      stake_rao: '1000000000',
      stake_tao_rao: '1000000000',
      source,
    })),
  });
  const prices = TaxFiatPrices.parse({
    days: truth.days.map((day, i) => ({
      date: day.date,
      usd: i === truth.days.length - 1 ? null : (400 + i * 1.25).toFixed(2),
      gbp: (300 + i * 0.5).toFixed(2),
      source: 'stand-in',
    })),
  });
  const shards = new Map<string, Record<string, ColdkeyEvent[]>>();
  for (const event of truth.staking_events) {
    const shard = coldkeyShardOf(event.coldkey);
    const coldkeys = shards.get(shard) ?? {};
    const events = coldkeys[event.coldkey] ?? [];
    coldkeys[event.coldkey] = events;
    events.push({
      block: event.block,
      event_index: event.event_index,
      time: event.time,
      kind: event.kind,
      role: 'origin',
      hotkey: event.hotkey,
      netuid: event.netuid,
      tao_rao: event.tao_rao,
      alpha_rao: event.alpha_rao,
      fee_rao: null,
      counterpart_coldkey: null,
      counterpart_hotkey: null,
      counterpart_netuid: null,
    });
    shards.set(shard, coldkeys);
  }
  return [
    { path: taxPaths.yields(), body: json(yields), contentType: 'application/json' },
    { path: taxPaths.fiatPrices(), body: json(prices), contentType: 'application/json' },
    ...[...shards].map(([shard, coldkeys]) => ({
      path: taxPaths.coldkeyShard(shard),
      body: json(ColdkeyShard.parse({ shard, coldkeys })),
      contentType: 'application/json',
    })),
  ];
}
