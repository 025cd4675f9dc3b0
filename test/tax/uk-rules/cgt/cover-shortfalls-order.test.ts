/**
 * `coverShortfalls` orders the record's transactions by instant, acquisitions first, then asset in
 * `localeCompare`'s order (each asset's place found once, and a list already in that order kept as it is). Its
 * order must be exactly what sorting with `localeCompare` in every comparison gives: the gains engine and every
 * export follow it. Assets of every case and kind a record holds: TAO, alphas, a buyer's tokens.
 */
import { describe, expect, it } from 'vitest';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { coverShortfalls, type PackFlag } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';

const ASSETS = ['TAO', 'alpha:1:0', 'alpha:10:0', 'alpha:2:0', 'alpha:1:4200', 'USDT', 'usdc', 'BTC', 'eth'];
const INSTANTS = ['2025-06-01T10:00:00Z', '2025-06-01T23:00:00Z', '2025-06-02T09:30:00Z'];

/** What sorting with `localeCompare` in every comparison gives (the order the ranks must keep). */
function byLocaleCompare(list: readonly CgtTransaction[]): CgtTransaction[] {
  return [...list].sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      (a.action === b.action ? 0 : a.action === 'acquire' ? -1 : 1) ||
      a.asset.localeCompare(b.asset),
  );
}

/** A fixed shuffle (the same on every run). */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function transactions(): CgtTransaction[] {
  const list: CgtTransaction[] = [];
  for (const at of INSTANTS)
    for (const asset of ASSETS) {
      // Plenty acquired before anything is disposed of: no shortfall.
      list.push({
        at: new Date(at),
        asset,
        action: 'acquire',
        quantity: new CgtDecimal(10),
        gbp: new CgtDecimal(5),
        ref: `a ${at} ${asset}`,
      });
      if (at !== INSTANTS[0])
        list.push({
          at: new Date(at),
          asset,
          action: 'dispose',
          quantity: new CgtDecimal(1),
          gbp: new CgtDecimal(1),
          ref: `d ${at} ${asset}`,
        });
    }
  return list;
}

describe('the order coverShortfalls keeps', () => {
  it('is the localeCompare order, whatever order the transactions came in', () => {
    const all = transactions();
    const expected = byLocaleCompare(all);
    for (const seed of [1, 2, 3, 4, 5]) {
      const covered = coverShortfalls(shuffled(all, seed), []);
      expect(covered.map((tx) => tx.ref)).toEqual(expected.map((tx) => tx.ref));
    }
  });

  it('keeps a list already in that order as it is, as a new list', () => {
    const ordered = byLocaleCompare(transactions());
    const covered = coverShortfalls(ordered, []);
    expect(covered).not.toBe(ordered);
    expect(covered).toEqual(ordered);
  });

  it('puts an acquisition covering a shortfall where the localeCompare order puts it', () => {
    const list = shuffled(transactions(), 9);
    // A disposal of a token never acquired: covered by an acquisition of the same instant.
    list.push({
      at: new Date(INSTANTS[1]!),
      asset: 'Alpha:3:0',
      action: 'dispose',
      quantity: new CgtDecimal(2),
      gbp: new CgtDecimal(4),
      ref: 'd short',
    });
    const flags: PackFlag[] = [];
    const covered = coverShortfalls(list, flags);
    expect(flags.map((flag) => flag.kind)).toEqual(['unexplained']);
    expect(covered.length).toBe(list.length + 1);
    expect(covered.map((tx) => `${tx.ref}`)).toEqual(byLocaleCompare(covered).map((tx) => `${tx.ref}`));
  });
});
