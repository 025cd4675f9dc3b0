import { encodeValidJson } from '../amounts/exact-json.js';
import { PUBLIC_HISTORY_WINDOWS } from '../contract/windows.js';
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
 * so each is published with its brotli and gzip forms (`RunObject.precompress`): at the strongest
 * settings what is public and polled (the list, the details, the 7- and 30-day histories), faster for
 * the large objects only key holders fetch (the 90- and 365-day histories, every CSV export).
 */
export function renderRun(documents: SnapshotDocument[], csv: HistoryTable[]): RunObject[] {
  const objects: RunObject[] = documents.map((document) => {
    const json = encodeValidJson(document.schema, document.value);
    if (!json.ok) throw new SnapshotInvalidError(`${document.path} breaks the contract: ${json.problem}`);
    return {
      path: document.path,
      body: json.bytes,
      contentType: 'application/json; charset=utf-8',
      precompress: servedOften(document.path) ? 'max' : 'fast',
    };
  });
  for (const table of csv) {
    objects.push({
      path: table.path,
      body: encoder.encode(renderHistoryCsv(table.rows)),
      contentType: 'text/csv; charset=utf-8',
      precompress: 'fast',
    });
  }
  return objects;
}

const HISTORY_PATH = /\/history-(\d+)\.json$/;

/** Every JSON document but the paid windows' histories is public, and polled. */
export function servedOften(path: string): boolean {
  const history = HISTORY_PATH.exec(path);
  return !history || PUBLIC_HISTORY_WINDOWS.includes(Number(history[1]));
}
