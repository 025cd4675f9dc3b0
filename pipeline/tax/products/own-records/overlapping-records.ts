/**
 * Two files that export the same transactions: an exchange's own export and a Koinly file of the same
 * account, say. Each would count every trade once more. Rows of two different files with the same kind,
 * token and quantity, within `SAME_TRANSACTION_MS` of each other, are listed as a point to check (never
 * dropped: two equal purchases a minute apart happen, and only the buyer knows).
 */
import { plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { OwnRecord, RecordNote } from './customer-inputs.js';

/** Exports of one transaction by two tools differ by seconds at most (rounding, the time they keep). */
export const SAME_TRANSACTION_MS = 120_000;

/** The points for each record of `added` that looks like one of another file (earlier or in `added`). */
export function overlappingRecords(earlier: readonly OwnRecord[], added: readonly OwnRecord[]): RecordNote[] {
  const key = (r: OwnRecord) => `${r.kind}|${r.asset}|${plainDecimal(r.quantity)}`;
  const seen = new Map<string, OwnRecord[]>();
  for (const record of earlier) seen.set(key(record), [...(seen.get(key(record)) ?? []), record]);
  const notes: RecordNote[] = [];
  for (const record of added) {
    const same = (seen.get(key(record)) ?? []).find(
      (other) =>
        other.source !== record.source &&
        Math.abs(other.at.getTime() - record.at.getTime()) <= SAME_TRANSACTION_MS,
    );
    if (same) {
      notes.push({
        file: record.source,
        line: record.line,
        at: record.at,
        text: `looks like ${same.source} line ${same.line}, the same transaction (a ${record.kind} of ${plainDecimal(record.quantity)} ${record.asset} at ${record.at.toISOString().slice(0, 16)}Z): both are counted. If the two files export the same account (an exchange's file and a Koinly file of it), give only one of them.`,
      });
    }
    seen.set(key(record), [...(seen.get(key(record)) ?? []), record]);
  }
  return notes;
}
