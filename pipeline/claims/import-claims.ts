/**
 * `sbm claims import FILE.csv`: dated, published buyback claims (curated by hand; not verified revenue).
 * Columns: `netuid,text,name_at_source,source,published,reviewed` (name_at_source and reviewed may be
 * empty). Every row is validated first and each problem names its line; a file with any problem imports
 * nothing. Rows are upserted on (netuid, published, source); `replace` makes the table equal the file.
 */
import { readFile } from 'node:fs/promises';
import { type CsvProblem, CsvRejectedError } from '../csv/csv-rejected-error.js';
import { readCsv } from '../csv/read-csv.js';
import { isUtcDay } from '../time/utc-day.js';
import { openWarehouse } from '../warehouse/open-warehouse.js';

export interface ClaimRow {
  netuid: number;
  text: string;
  nameAtSource: string | null;
  source: string;
  published: string;
  reviewed: string | null;
}

export class ClaimsImportError extends CsvRejectedError {
  override name = 'ClaimsImportError';
  constructor(problems: readonly CsvProblem[]) {
    super('claims file', problems);
  }
}

const COLUMNS = ['netuid', 'text', 'name_at_source', 'source', 'published', 'reviewed'] as const;

export function parseClaimsCsv(text: string): ClaimRow[] {
  const { records, problems } = readCsv(text, COLUMNS);
  const rows: ClaimRow[] = [];
  const keys = new Map<string, number>();
  for (const { line, values } of records) {
    const v = (name: (typeof COLUMNS)[number]) => (values[name] ?? '').trim();
    const before = problems.length;
    const netuid = v('netuid');
    if (!/^\d{1,5}$/.test(netuid) || Number(netuid) > 65_535) {
      problems.push({ line, text: `netuid "${netuid}" is not an integer from 0 to 65535` });
    }
    if (v('text') === '') problems.push({ line, text: 'text is empty' });
    if (!isHttpUrl(v('source'))) {
      problems.push({ line, text: `source "${v('source')}" is not an http(s) URL` });
    }
    if (!isUtcDay(v('published'))) {
      problems.push({ line, text: `published "${v('published')}" is not a YYYY-MM-DD day` });
    }
    const reviewed = v('reviewed');
    if (reviewed !== '' && !isUtcDay(reviewed)) {
      problems.push({ line, text: `reviewed "${reviewed}" is not a YYYY-MM-DD day (or empty)` });
    } else if (reviewed !== '' && isUtcDay(v('published')) && reviewed < v('published')) {
      problems.push({ line, text: `reviewed ${reviewed} is before published ${v('published')}` });
    }
    const key = `${netuid}/${v('published')}/${v('source')}`;
    const earlier = keys.get(key);
    if (earlier !== undefined) {
      problems.push({ line, text: `same netuid, published and source as line ${earlier}` });
    }
    keys.set(key, line);
    if (problems.length === before) {
      rows.push({
        netuid: Number(netuid),
        text: v('text'),
        nameAtSource: v('name_at_source') === '' ? null : v('name_at_source'),
        source: v('source'),
        published: v('published'),
        reviewed: reviewed === '' ? null : reviewed,
      });
    }
  }
  if (problems.length > 0) throw new ClaimsImportError(problems);
  return rows;
}

export async function importClaims(options: {
  file: string;
  warehousePath: string;
  replace?: boolean;
}): Promise<number> {
  const rows = parseClaimsCsv(await readFile(options.file, 'utf8'));
  const warehouse = await openWarehouse(options.warehousePath);
  try {
    await warehouse.transaction(async () => {
      if (options.replace) await warehouse.run('DELETE FROM claims');
      for (const row of rows) {
        await warehouse.run(
          `INSERT OR REPLACE INTO claims VALUES ($netuid, $text, $name, $source, $published::DATE, $reviewed::DATE)`,
          {
            netuid: row.netuid,
            text: row.text,
            name: row.nameAtSource,
            source: row.source,
            published: row.published,
            reviewed: row.reviewed,
          },
        );
      }
    });
    return rows.length;
  } finally {
    warehouse.close();
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
