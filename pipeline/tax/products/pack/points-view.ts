/**
 * The first view of a pack's points to check (the PDF's list, the order page's): a screenful, however many
 * points points.csv holds. A big coldkey's pack can have hundreds (an address per counterparty, a subnet per
 * ended pool), most of them small and settled by the same action; read one a paragraph, they bury the few
 * that matter. So the view groups the points by their kind, which is what settles them: each group is one
 * line naming its action once (a group of one point is that point, with its action), then its points, the largest on a line of their own and the rest of the
 * group merged into one line ("31 other addresses, £120.50 in total, each £9.80 or less: points.csv lists
 * each"). Every point is in a line (none is hidden: a merged line counts and totals its points and gives
 * their ranks in points.csv), and the lines stay within `SCREENFUL_LINES`. The points keep points.csv's
 * order (most pounds at stake first) within a group, and the groups follow the order of their first points.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal, pounds } from '../../uk-rules/cgt/cgt-decimal.js';

/** The lines the view may take, its groups' lines and their points' together: a screen's worth. */
export const SCREENFUL_LINES = 18;

/** What the view reads of a point: the PDF's (pack-points.ts) and the page's (points.csv's rows) both have it. */
export interface ViewablePoint {
  kind: string;
  action: string;
}

/** One point of a group shown on a line of its own, with its rank in points.csv (1 = most pounds at stake). */
export interface ShownPoint<T> {
  rank: number;
  point: T;
}

/** The points of a group merged into one line: how many, their ranks, their pounds in total and the largest. */
export interface MergedPoints<T> {
  points: ShownPoint<T>[];
  /** Their pounds at stake together; null when none of them has a figure. */
  gbp: Decimal | null;
  /** The most pounds at stake of any one of them; null when none of them has a figure. */
  largestGbp: Decimal | null;
}

/** The points of one kind: settled the same way. */
export interface PointGroup<T> {
  kind: string;
  /** How many points the group holds. */
  count: number;
  /** Its pounds at stake together; null when none of its points has a figure. */
  gbp: Decimal | null;
  /** What settles its points: their action when they all share it, else the kind's (`GROUP_ACTIONS`). */
  action: string;
  /** Its points with a line each, in points.csv's order. */
  shown: ShownPoint<T>[];
  /** The rest of it on one line; null when every point has a line. */
  rest: MergedPoints<T> | null;
}

/**
 * What settles a kind's points when their actions differ (each names its own exchange or blocks): the
 * group's line says this, and each point's line its own.
 */
const GROUP_ACTIONS: Record<string, string> = {
  'missing-records':
    'Add the export of each exchange named (its transaction history, as downloaded) on the order page.',
  reconciliation:
    'Look the coldkeys up on a block explorer at the days named (reconciliation.csv has each day and block): a sale, gift or payment, tell your adviser; a move to your own wallet, add that address on the order page.',
};

export interface PointsView<T> {
  groups: PointGroup<T>[];
  /**
   * The lines the view takes: a line per group and per point or merged line under it; a group of one point
   * is that point's line alone (with its action), no group line above it.
   */
  lines: number;
}

/**
 * The view of `points` (in points.csv's order), within `maxLines` when it can be: a group of many points needs
 * two lines at least (its own and one merged line under it), a group of one point one; past that, its `lines`
 * say by how much the view is over.
 */
export function pointsView<T extends ViewablePoint>(
  points: readonly T[],
  stake: (point: T) => Decimal | null,
  maxLines = SCREENFUL_LINES,
): PointsView<T> {
  const byKind = new Map<string, ShownPoint<T>[]>();
  points.forEach((point, index) => {
    byKind.set(point.kind, [...(byKind.get(point.kind) ?? []), { rank: index + 1, point }]);
  });
  // Each group starts as its line and one line under it (its point, or all of them merged); then points get
  // lines of their own, most pounds at stake first, while the view has room: giving one to a group's second
  // last point leaves its last alone on the merged line, which is then that point's own (no line more).
  const ownLines = new Map<string, number>([...byKind.keys()].map((kind) => [kind, 0]));
  // A group of one point is that point's line alone, its action beside it: no group line above it.
  let lines = [...byKind.values()].reduce((sum, members) => sum + (members.length === 1 ? 1 : 2), 0);
  // A group whose points each name their own action (each exchange's export) shows them first: merged, the
  // group's line could only say what settles them in general.
  const varied = (kind: string) => new Set(byKind.get(kind)!.map((m) => m.point.action)).size > 1;
  const candidates = [
    ...points.filter((point) => varied(point.kind)),
    ...points.filter((point) => !varied(point.kind)),
  ];
  for (const point of candidates) {
    const members = byKind.get(point.kind)!;
    const own = ownLines.get(point.kind)!;
    const extra = members.length - own >= 2 ? 1 : 0;
    if (lines + extra > maxLines) break;
    lines += extra;
    ownLines.set(point.kind, own + 1);
  }
  const groups = [...byKind].map(([kind, members]) => {
    // A single point left over is shown as itself, not as "1 other".
    const own = members.length - ownLines.get(kind)! <= 1 ? members.length : ownLines.get(kind)!;
    const merged = members.slice(own);
    const actions = new Set(members.map((m) => m.point.action));
    return {
      kind,
      count: members.length,
      gbp: sum(members.map((m) => stake(m.point))),
      action:
        actions.size === 1 ? members[0]!.point.action : (GROUP_ACTIONS[kind] ?? 'Each point names its own.'),
      shown: members.slice(0, own),
      rest:
        merged.length === 0
          ? null
          : {
              points: merged,
              gbp: sum(merged.map((m) => stake(m.point))),
              largestGbp: largest(merged.map((m) => stake(m.point))),
            },
    };
  });
  return { groups, lines };
}

function sum(values: readonly (Decimal | null)[]): Decimal | null {
  const known = values.filter((v): v is Decimal => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a.plus(b), new CgtDecimal(0));
}

function largest(values: readonly (Decimal | null)[]): Decimal | null {
  const known = values.filter((v): v is Decimal => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => (b.gt(a) ? b : a));
}

/**
 * The ranks of merged points as a reader finds them in points.csv: runs joined (`4, 7-9, 12`), and past a
 * few runs the first and last (`4 to 212`).
 */
export function ranksText(ranks: readonly number[]): string {
  const runs: [number, number][] = [];
  for (const rank of ranks) {
    const last = runs.at(-1);
    if (last && rank === last[1] + 1) last[1] = rank;
    else runs.push([rank, rank]);
  }
  if (runs.length > 4) return `${ranks[0]} to ${ranks.at(-1)}`;
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
}

/** A group's words for its points: `addresses outside the order`, `subnets ended`... (one or many). */
export function groupNoun(kind: string, count: number): string {
  const [one, many] = GROUP_NOUNS[kind] ?? ['point', 'points'];
  return count === 1 ? one : many;
}

const GROUP_NOUNS: Record<string, [string, string]> = {
  address: ['address outside the order', 'addresses outside the order'],
  'missing-records': ['exchange without its records', 'exchanges without their records'],
  reconciliation: ['token not reconciled with the chain', 'tokens not reconciled with the chain'],
  'transfer-out': ['transfer out of the order', 'transfers out of the order'],
  'transfer-in': ['transfer into the order', 'transfers into the order'],
  'negative-income': ['fall in stake', 'falls in stake'],
  unexplained: ['holding the record does not explain', 'holdings the record does not explain'],
  unpriced: ['income without a price', 'incomes without a price'],
  ended: ['subnet ended', 'subnets ended'],
  moved: ['stake moved between keys', 'stakes moved between keys'],
  opening: ['point about the opening holdings', 'points about the opening holdings'],
  calendar: ['point about the calendar', 'points about the calendar'],
  'stale-rate': ['day with an older exchange rate', 'days with an older exchange rate'],
  provisional: ['provisional 30-day match', 'provisional 30-day matches'],
  'own-records': ['line of your records', 'lines of your records'],
};

/** The view's first words: how many points, the pounds at stake, the groups. */
export function pointsLead(count: number, groups: readonly PointGroup<unknown>[]): string {
  const total = groups.reduce<Decimal | null>(
    (sum, group) => (group.gbp === null ? sum : (sum ?? new CgtDecimal(0)).plus(group.gbp)),
    null,
  );
  const stake = total === null ? '' : `, ${gbpText(total)} at stake`;
  const numbered =
    'numbered as points.csv numbers them (one a row, with its action), most pounds at stake first.';
  // Each point of a kind of its own: no group to speak of.
  if (groups.length === count)
    return `${count} point${count === 1 ? '' : 's'}${stake}, each with what settles it, ${numbered}`;
  return `${count} points${stake}, in ${groups.length} group${groups.length === 1 ? '' : 's'} by what settles them; the points ${numbered}`;
}

/** A group's line: how many points of its kind and their pounds at stake. */
export function groupLine(group: PointGroup<unknown>): string {
  const stake = group.gbp === null ? '' : `: ${gbpText(group.gbp)} at stake`;
  return `${group.count} ${groupNoun(group.kind, group.count)}${stake}`;
}

/** The line of a group's merged points: how many, their total, the largest, where each is. */
export function restLine(kind: string, rest: MergedPoints<unknown>): string {
  const n = rest.points.length;
  const amount =
    rest.gbp === null || rest.largestGbp === null
      ? ''
      : `, ${gbpText(rest.gbp)} in total, each ${gbpText(rest.largestGbp)} or less`;
  return `${ranksText(rest.points.map((p) => p.rank))}. ${n} other ${groupNoun(kind, n)}${amount}: points.csv lists each, with its days and amounts.`;
}

const gbpText = (value: Decimal) => `£${pounds(value)}`;

/** A point's title by its kind, for the kinds with no address or token to name. */
export function kindTitle(kind: string): string {
  return POINT_TITLES[kind] ?? kind;
}

const POINT_TITLES: Record<string, string> = {
  'transfer-out': 'Transfer out of the order',
  'transfer-in': 'Transfer into the order',
  'negative-income': 'A fall in stake',
  unexplained: 'Holdings the record does not explain',
  unpriced: 'Income without a price',
  ended: 'A subnet ended',
  moved: 'Stake moved between keys',
  opening: 'The opening holdings',
  calendar: 'Days placed from the chain',
  'stale-rate': 'An older TAO/GBP rate',
  provisional: 'Provisional figures',
  'own-records': 'Your records',
  reconciliation: 'A token not reconciled with the chain',
};
