/**
 * `tax/calendar.json` of a run: the last block of every collected UK day (`pipeline/tax/chain-record/uk-day-ends.ts`).
 * Winter days come straight from the warehouse's collected UTC days. Summer days end at 23:00Z, inside a UTC
 * day: their block is taken from the previous run's calendar when it is still consistent with the
 * collection, and otherwise found on the chain (about 13 timestamp reads a day, only for new days). Without
 * a chain (`sbm publish` with no node reachable), new summer days are left out until a run that has one.
 */
import { ChainReader } from '../chain/chain-reader.js';
import { connectRpc, type RpcClient } from '../chain/rpc-client.js';
import { TaxCalendar, taxPaths } from '../contract/tax-published.js';
import { type ObjectStore, readManifest, readPublishedObject } from '../store/index.js';
import { type CollectedUtcDay, type UkDayEnd, ukDayEnds } from '../tax/chain-record/uk-day-ends.js';
import type { Warehouse } from '../warehouse/open-warehouse.js';

export interface CalendarChain {
  url: string;
  concurrency: number;
}

export interface TaxCalendarResult {
  calendar: TaxCalendar;
  /** Set when the chain could not be read: summer days not known before are missing. */
  warning: string | null;
}

export async function readCollectedUtcDays(warehouse: Warehouse): Promise<CollectedUtcDay[]> {
  const rows = await warehouse.rows(
    `SELECT strftime(day, '%Y-%m-%d') AS day, first_block, last_block,
            epoch_ms(last_block_time) AS last_ms, complete AND NOT partial AS whole
       FROM collected_days ORDER BY day`,
  );
  return rows.map((row) => ({
    day: String(row['day']),
    firstBlock: Number(row['first_block']),
    lastBlock: Number(row['last_block']),
    lastBlockTimeMs: Number(row['last_ms']),
    complete: Boolean(row['whole']),
  }));
}

export async function buildTaxCalendar(
  collected: readonly CollectedUtcDay[],
  store: ObjectStore,
  chain: CalendarChain | null,
): Promise<TaxCalendarResult> {
  const known = await previousDayEnds(store);
  // Connected only when a summer day needs placing: most runs (winter, or days placed before) read nothing.
  let rpc: Promise<RpcClient> | null = null;
  let warning: string | null = null;
  const timeOf = chain
    ? async (block: number) => {
        rpc ??= connectRpc({ url: chain.url, concurrency: chain.concurrency, connectTimeoutMs: 5_000 });
        return new ChainReader(await rpc).timestampOf(block);
      }
    : null;
  try {
    let ends: UkDayEnd[];
    try {
      ends = await ukDayEnds(collected, timeOf, known);
    } catch (error) {
      warning = `tax calendar: the chain could not be read (${error instanceof Error ? error.message : String(error)}); summer days not placed before are left out`;
      ends = await ukDayEnds(collected, null, known);
    }
    return {
      calendar: {
        time_zone: 'Europe/London',
        days: ends.map((end) => ({
          date: end.date,
          last_block: end.lastBlock,
          last_block_time: new Date(end.lastBlockTimeMs).toISOString(),
        })),
      },
      warning,
    };
  } finally {
    if (rpc) await (rpc as Promise<RpcClient>).then((client) => client.close()).catch(() => undefined);
  }
}

/** The calendar of the run served now, if it has one: its summer days need no chain read again. */
async function previousDayEnds(store: ObjectStore): Promise<Map<string, UkDayEnd>> {
  const known = new Map<string, UkDayEnd>();
  const manifest = await readManifest(store, '').catch(() => null);
  if (!manifest) return known;
  const object = await readPublishedObject(store, manifest, taxPaths.calendar()).catch(() => null);
  if (!object) return known;
  const parsed = TaxCalendar.safeParse(JSON.parse(new TextDecoder().decode(object.body)));
  if (!parsed.success) return known;
  for (const day of parsed.data.days) {
    known.set(day.date, {
      date: day.date,
      lastBlock: day.last_block,
      lastBlockTimeMs: Date.parse(day.last_block_time),
    });
  }
  return known;
}
