/**
 * The pools the computation starts from, instead of each token's market value on the first collected day.
 * Two files are read:
 *
 * - a pack's `pools.csv` (`asset,quantity,cost_gbp,as_at`): last year's closing pools, all at one `as_at`
 *   day. An optional `kind` column adds `matched-ahead` rows: acquisitions of UK day `as_at` (after the
 *   pools' day, within the 30 days) that last year's disposals already took under the 30-day rule, so
 *   this year's computation does not pool them again. Carrying them is what makes two years computed
 *   one after the other equal one computation across both. A `record-end` row (no asset) gives the last
 *   day that pack's record read: less than 30 days after the pools' day, its last disposals' 30-day
 *   matches were provisional, and combining says so.
 * - figures the buyer entered (`asset,quantity,cost_gbp`): the pools at the first day of the records.
 *
 * Assets are kept as given (a pack writes `alpha:12:0`, a person `SN12-ALPHA`), checked to name TAO or an
 * alpha, and one pool may be named once.
 */

import { DAY_MS } from '../../../time/utc-day.js';
import { BED_AND_BREAKFAST_DAYS } from '../../uk-rules/cgt/compute-gains.js';
import type { MatchedAhead, OpeningPool, OpeningPools } from './customer-inputs.js';
import type { ReportProblem } from './input-problems.js';
import { pooledAsset, tokenCode, unknownAsset } from './record-asset.js';
import { RecordRow } from './record-row.js';
import { checkCells, type UploadTable } from './upload-table.js';

export const POOLS_CSV_COLUMNS = ['asset', 'quantity', 'cost_gbp', 'as_at', 'kind'] as const;
export const ENTERED_COLUMNS = ['asset', 'quantity', 'cost_gbp'] as const;

export function readOpeningPools(table: UploadTable, report: ReportProblem): OpeningPools | null {
  const header = table.header;
  const missing = ENTERED_COLUMNS.filter((name) => !header.includes(name));
  if (missing.length > 0) {
    report(
      1,
      null,
      `the header must be a pack's pools.csv (asset,quantity,cost_gbp,as_at) or your figures (asset,quantity,cost_gbp); missing: ${missing.join(', ')}`,
    );
    return null;
  }
  const fromPack = header.includes('as_at');
  if (header.includes('kind') && !fromPack) {
    report(1, null, "a kind column belongs to a pack's pools.csv, which has as_at too");
    return null;
  }
  if (!checkCells(table, new Set(['quantity', 'cost_gbp']), (column) => column, report)) return null;

  let ok = true;
  const pools: OpeningPool[] = [];
  const matchedAhead: MatchedAhead[] = [];
  const poolLines = new Map<string, number>();
  const aheadLines = new Map<string, number>();
  let asAt: { day: string; line: number } | null = null;
  const aheadDays: Array<{ day: string; line: number }> = [];
  let recordEnd: string | null = null;
  for (const csvRow of table.rows) {
    const row = new RecordRow(csvRow, (column) => column, report);
    if (fromPack && row.text('kind').toLowerCase() === 'record-end') {
      recordEnd = ukDay(row);
      if (recordEnd === null) ok = false;
      continue;
    }
    const assetText = row.text('asset');
    const key = poolKey(assetText);
    if (key === null) row.problem('asset', unknownAsset(assetText));
    const quantity = row.required('quantity', false, "give the pool's quantity (0 for an empty pool)");
    const cost = row.required('cost_gbp', false, "give the pool's cost in pounds");
    if (quantity?.isZero() && cost && !cost.isZero()) {
      row.problem('cost_gbp', 'an empty pool (quantity 0) has no cost: give 0');
    }
    const kind = fromPack ? row.text('kind').toLowerCase() || 'pool' : 'pool';
    if (kind !== 'pool' && kind !== 'matched-ahead') {
      row.problem(
        'kind',
        `"${row.text('kind').slice(0, 20)}" is not a kind read here: pool (or empty), matched-ahead or record-end`,
      );
    }
    const day = fromPack ? ukDay(row) : null;
    if (kind === 'matched-ahead' && quantity?.isZero())
      row.problem('quantity', 'is zero: a matched-ahead row names what was matched');
    if (row.failed || key === null || !quantity || !cost) {
      ok = false;
      continue;
    }
    const asset = normalised(assetText);
    if (kind === 'matched-ahead') {
      const aheadKey = `${key}|${day}`;
      const first = aheadLines.get(aheadKey);
      if (first !== undefined) {
        row.problem('asset', `this asset's matched-ahead day is given twice: also on line ${first}`);
        ok = false;
        continue;
      }
      aheadLines.set(aheadKey, row.line);
      aheadDays.push({ day: day!, line: row.line });
      matchedAhead.push({ asset, day: day!, quantity, cost });
      continue;
    }
    const first = poolLines.get(key);
    if (first !== undefined) {
      row.problem('asset', `this pool is given twice: also on line ${first}`);
      ok = false;
      continue;
    }
    poolLines.set(key, row.line);
    if (day !== null) {
      if (asAt === null) asAt = { day, line: row.line };
      else if (asAt.day !== day) {
        row.problem(
          'as_at',
          `is ${day} but line ${asAt.line} has ${asAt.day}: a pools.csv gives every pool at one day`,
        );
        ok = false;
        continue;
      }
    }
    pools.push({ asset, quantity, cost });
  }
  if (fromPack && asAt === null && ok) {
    report(1, null, "the file has no pool rows (kind pool): the pools' day is not known");
    return null;
  }
  if (asAt !== null) {
    for (const ahead of aheadDays) {
      const days = (Date.parse(ahead.day) - Date.parse(asAt.day)) / DAY_MS;
      if (days < 1 || days > BED_AND_BREAKFAST_DAYS) {
        report(
          ahead.line,
          'as_at',
          `a matched-ahead day is 1 to ${BED_AND_BREAKFAST_DAYS} days after the pools' day ${asAt.day}; ${ahead.day} is not`,
        );
        ok = false;
      }
    }
  }
  if (!ok) return null;
  return fromPack
    ? { source: 'pools.csv', asAt: asAt!.day, pools, matchedAhead, ...(recordEnd ? { recordEnd } : {}) }
    : { source: 'entered', asAt: null, pools, matchedAhead };
}

/** One name per pool, whichever way it is written: `alpha:12:0`, `SN12-ALPHA` and `sn12-alpha` are one. */
/** A right that is no token, as a pack names it (a liquidity position, a crowdloan contribution). */
const CLAIM = /^(liquidity:\d{1,5}:\d{1,39}|crowdloan:\d{1,10}|subnet-lock:\d{1,5}:\d{1,12})$/i;

function poolKey(text: string): string | null {
  if (CLAIM.test(text.trim())) return text.trim().toLowerCase();
  const pack = /^alpha:(\d{1,5}):(\d{1,12})$/i.exec(text.trim());
  if (pack) {
    const netuid = Number(pack[1]);
    if (netuid > 65_535) return null;
    const block = Number(pack[2]);
    return block === 0 ? `SN${netuid}-ALPHA` : `SN${netuid}-ALPHA-R${block}`;
  }
  // TAO, alpha, or another token a pack pooled from exchange records (USDT, BTC).
  return pooledAsset(text) ?? tokenCode(text);
}

/** The asset as given, in its canonical spelling (`tao` → `TAO`, `alpha:012:0` → `alpha:12:0`). */
function normalised(text: string): string {
  if (CLAIM.test(text.trim())) return text.trim().toLowerCase();
  const pack = /^alpha:(\d+):(\d+)$/i.exec(text.trim());
  if (pack) return `alpha:${Number(pack[1])}:${Number(pack[2])}`;
  return (pooledAsset(text) ?? tokenCode(text))!;
}

function ukDay(row: RecordRow): string | null {
  const text = row.text('as_at');
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== text) {
    row.problem('as_at', `"${text.slice(0, 20)}" is not a day: write it as YYYY-MM-DD`);
    return null;
  }
  return text;
}
