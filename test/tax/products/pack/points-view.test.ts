/**
 * The first view of a big pack's points to check: a wide holder's year, 60 counterparty addresses of every
 * size, two exchanges named as the buyer's with no records, subnets that ended, the opening and provisional
 * figures, made into points by the pack's own `packPoints` and viewed as the PDF and the order page show
 * them. It stays a screenful, every point of points.csv is in one line of it (none hidden, a merged line
 * counting and totalling its points), and every line names what settles its points.
 */
import { describe, expect, it } from 'vitest';
import { type PackPoint, packPoints } from '../../../../pipeline/tax/products/pack/pack-points.js';
import {
  pointsView,
  ranksText,
  restLine,
  SCREENFUL_LINES,
} from '../../../../pipeline/tax/products/pack/points-view.js';
import { bigLedger, d } from './wide-holder-points.js';

describe("a big pack's points at first view", () => {
  const points = packPoints(bigLedger());
  const view = pointsView(points, (point) => point.gbp);

  it('is a screenful however many points there are', () => {
    expect(points.length).toBe(60 + 2 + 8 + 2);
    expect(view.lines).toBeLessThanOrEqual(SCREENFUL_LINES);
    // The lines it says it takes are those it shows: a line per group, per point shown, per merged line
    // (a group of one point is that point's line alone).
    const counted = view.groups.reduce(
      (sum, g) => sum + (g.count === 1 ? 1 : 1 + g.shown.length + (g.rest ? 1 : 0)),
      0,
    );
    expect(counted).toBe(view.lines);
    // The room is used: the largest addresses are on lines of their own.
    expect(view.groups.find((g) => g.kind === 'address')!.shown.length).toBeGreaterThanOrEqual(5);
  });

  it('holds every point once, by its rank in points.csv, none hidden', () => {
    const ranks = view.groups.flatMap((g) => [
      ...g.shown.map((s) => s.rank),
      ...(g.rest?.points.map((s) => s.rank) ?? []),
    ]);
    expect([...ranks].sort((a, b) => a - b)).toEqual(points.map((_, i) => i + 1));
    for (const group of view.groups) {
      for (const s of [...group.shown, ...(group.rest?.points ?? [])])
        expect(points[s.rank - 1]).toBe(s.point);
      expect(group.count).toBe(group.shown.length + (group.rest?.points.length ?? 0));
    }
  });

  it('shows the largest of a group on their own and counts and totals the rest on one line', () => {
    const addresses = view.groups.find((g) => g.kind === 'address')!;
    const rest = addresses.rest!;
    expect(rest.points.length).toBeGreaterThan(1);
    const smallestShown = addresses.shown.at(-1)!.point.gbp!;
    for (const s of rest.points) expect(s.point.gbp!.lte(smallestShown)).toBe(true);
    const total = rest.points.reduce((sum, s) => sum.plus(s.point.gbp!), d('0'));
    expect(rest.gbp!.eq(total)).toBe(true);
    const line = restLine('address', rest);
    expect(line).toContain(`${rest.points.length} other addresses outside the order`);
    expect(line).toContain(ranksText(rest.points.map((s) => s.rank)));
    expect(line).toMatch(/points\.csv lists each/);
    // The groups follow their first points: the addresses (most pounds) first, the whole record's last.
    expect(view.groups.map((g) => g.kind)).toEqual([
      'address',
      'missing-records',
      'ended',
      'opening',
      'provisional',
    ]);
  });

  it('names what settles every point: its group says it, or the point does', () => {
    for (const group of view.groups) {
      expect(group.action.length).toBeGreaterThan(20);
      const all: PackPoint[] = [...group.shown, ...(group.rest?.points ?? [])].map((s) => s.point);
      const own = all.filter((p) => p.action !== group.action);
      // A point whose action differs from its group's (each exchange's export) is on a line of its own.
      for (const p of own) expect(group.shown.map((s) => s.point)).toContain(p);
    }
    const exchanges = view.groups.find((g) => g.kind === 'missing-records')!;
    expect(exchanges.shown.map((s) => s.point.action)).toEqual([
      'Add your Binance export (its transaction history, as downloaded) on the order page.',
      'Add your Kraken export (its transaction history, as downloaded) on the order page.',
    ]);
  });

  it('with fewer lines, still holds every group and every point', () => {
    const tight = pointsView(points, (point) => point.gbp, 10);
    expect(tight.lines).toBeLessThanOrEqual(10);
    expect(tight.groups).toHaveLength(5);
    expect(tight.groups.reduce((sum, g) => sum + g.count, 0)).toBe(points.length);
  });
});

describe('ranks of merged points', () => {
  it('are runs a reader finds in points.csv', () => {
    expect(ranksText([4, 7, 8, 9, 12])).toBe('4, 7-9, 12');
    expect(ranksText([3, 5, 7, 9, 11, 13])).toBe('3 to 13');
  });
});
