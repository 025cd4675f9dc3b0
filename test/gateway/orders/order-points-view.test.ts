/**
 * The order page's points to check for a wide holder's pack (points.csv made by the pack's own code from a
 * year with 60 counterparty addresses, two exchanges without records, eight ended subnets): the same groups
 * as the PDF, a screenful, each group naming what settles it, every address on a line of its own with its
 * "This address is mine" button, the smallest addresses on one line that counts them and sends the buyer to
 * the form's own addresses.
 */
import { describe, expect, it } from 'vitest';
import { orderStatusPage } from '../../../gateway/routes/order-status-page.js';
import type { Order } from '../../../pipeline/contract/index.js';
import { packPoints } from '../../../pipeline/tax/products/pack/pack-points.js';
import { pointsCsv, readPointsCsv } from '../../../pipeline/tax/products/pack/points-csv.js';
import { groupLine, pointsView, SCREENFUL_LINES } from '../../../pipeline/tax/products/pack/points-view.js';
import { bigLedger } from '../../tax/products/pack/wide-holder-points.js';

const ready: Order = {
  id: 'ord_wide',
  status: 'fulfilled',
  pack: { sku: 'uk-2025-26', name: 'UK tax pack 2025/26', kind: 'uk' },
  coldkeys: ['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'],
  created_at: '2026-11-21T10:00:00.000Z',
  paid_at: '2026-11-21T10:01:00.000Z',
  retention_days: 30,
  pack_url: 'https://sbm.example/tax/orders/ord_wide/pack?t=abc',
  pack_expires_at: '2026-12-21T10:05:00.000Z',
  records_url: 'https://sbm.example/tax/orders/ord_wide/records?t=abc',
};

describe("a wide holder's points on the order page", async () => {
  const points = packPoints(bigLedger());
  const rows = readPointsCsv(pointsCsv(points))!;
  const html = await orderStatusPage(
    ready,
    new Date('2026-11-21T10:06:00.000Z'),
    null,
    {},
    false,
    null,
    rows,
  ).text();
  const section = html.split('<section class="order-points"')[1]!.split('</section>')[0]!;
  const view = pointsView(points, (point) => point.gbp);

  it("shows the PDF's groups, a screenful, each naming what settles it", () => {
    const groups = [...section.matchAll(/<h3 class="point-group [^"]+">(.*?)<\/h3>/g)].map((m) => m[1]!);
    const many = view.groups.filter((g) => g.count > 1);
    expect(groups).toEqual(many.map((g) => groupLine(g).replace(/'/g, '&#39;')));
    // A group of many names its action once; a group of one point is that point with its action.
    const actions = section.match(/<p class="point-action">What settles each: /g) ?? [];
    expect(actions).toHaveLength(many.length);
    for (const single of view.groups.filter((g) => g.count === 1)) {
      const li = new RegExp(
        `<li class="point ${single.kind}" value="${single.shown[0]!.rank}">[\\s\\S]*?</li>`,
      ).exec(section)!;
      expect(li[0]).toContain('What settles it: ');
    }
    const items = section.match(/<li class="point |<p class="point-rest /g) ?? [];
    expect(groups.length + items.length).toBe(view.lines);
    expect(view.lines).toBeLessThanOrEqual(SCREENFUL_LINES);
    expect(section).toContain(`Points to check (${points.length})`);
  });

  it('gives every address on a line of its own its button, and the rest the form', () => {
    const shown = view.groups.find((g) => g.kind === 'address')!.shown;
    const buttons = [...section.matchAll(/name="own_address" value="([^"]+)"/g)].map((m) => m[1]);
    expect(buttons).toEqual(shown.map((s) => s.point.counterparty));
    const rest = /<p class="point-rest address">([^<]*)<\/p>/.exec(section)!;
    const merged = view.groups.find((g) => g.kind === 'address')!.rest!;
    expect(rest[1]).toContain(`${merged.points[0]!.rank}`);
    expect(rest[1]).toContain(`${merged.points.length} other addresses outside the order`);
    expect(rest[1]).toContain('Your own addresses');
  });
});
