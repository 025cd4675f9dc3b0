import { encodeValidJson } from '../amounts/exact-json.js';
import type { RunObject } from '../store/index.js';
import type { HistoryTable, SnapshotDocument } from './build-snapshots.js';
import { renderHistoryCsv } from './history-csv.js';

export class SnapshotInvalidError extends Error {
  override name = 'SnapshotInvalidError';
}

const encoder = new TextEncoder();

/**
 * Validates every document against its contract schema, then renders JSON and CSV bytes. One invalid
 * document aborts the whole run before anything is written. Every object is served to clients as it is,
 * so each is published with its brotli and gzip forms (`RunObject.precompress`).
 */
export function renderRun(documents: SnapshotDocument[], csv: HistoryTable[]): RunObject[] {
  const objects: RunObject[] = documents.map((document) => {
    const json = encodeValidJson(document.schema, document.value);
    if (!json.ok) throw new SnapshotInvalidError(`${document.path} breaks the contract: ${json.problem}`);
    return {
      path: document.path,
      body: json.bytes,
      contentType: 'application/json; charset=utf-8',
      precompress: true,
    };
  });
  for (const table of csv) {
    objects.push({
      path: table.path,
      body: encoder.encode(renderHistoryCsv(table.rows)),
      contentType: 'text/csv; charset=utf-8',
      precompress: true,
    });
  }
  return objects;
}
