import { z } from 'zod';
import type { RunObject } from '../store/index.js';
import type { HistoryTable, SnapshotDocument } from './build-snapshots.js';
import { stringifyExact, toPlain } from './exact-json.js';
import { renderHistoryCsv } from './history-csv.js';

export class SnapshotInvalidError extends Error {
  override name = 'SnapshotInvalidError';
}

const encoder = new TextEncoder();

/**
 * Validates every document against its contract schema, then renders JSON and CSV bytes. One invalid
 * document aborts the whole run before anything is written.
 */
export function renderRun(documents: SnapshotDocument[], csv: HistoryTable[]): RunObject[] {
  const objects: RunObject[] = documents.map((document) => {
    const parsed = document.schema.safeParse(toPlain(document.value));
    if (!parsed.success) {
      throw new SnapshotInvalidError(
        `${document.path} breaks the contract: ${z.prettifyError(parsed.error)}`,
      );
    }
    return {
      path: document.path,
      body: encoder.encode(stringifyExact(document.value)),
      contentType: 'application/json; charset=utf-8',
    };
  });
  for (const table of csv) {
    objects.push({
      path: table.path,
      body: encoder.encode(renderHistoryCsv(table.rows)),
      contentType: 'text/csv; charset=utf-8',
    });
  }
  return objects;
}
