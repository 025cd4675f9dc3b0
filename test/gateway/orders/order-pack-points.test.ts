/**
 * The order page, once paid and once the pack is ready, says which mechanisms the pack lists as points to
 * check (with their day and amount) and which it books by its method without a point, in the same words as
 * the free check's `mechanisms`; and it names the daily reconciliation's unexplained differences among the
 * points, the lease dividend before December 2025 as its example.
 */
import { describe, expect, it } from 'vitest';
import { orderStatusPage } from '../../../gateway/routes/order-status-page.js';
import { CHECK_MECHANISM_IDS, type Order } from '../../../pipeline/contract/index.js';
import { CHECK_MECHANISMS } from '../../../pipeline/tax/products/check-mechanisms.js';

const COLDKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const base: Order = {
  id: 'ord_points',
  status: 'paid',
  pack: { sku: 'uk-2025-26', name: 'UK tax pack 2025/26', kind: 'uk' },
  coldkeys: [COLDKEY],
  created_at: '2026-11-21T10:00:00.000Z',
  paid_at: '2026-11-21T10:01:00.000Z',
  retention_days: 30,
};
const ready: Order = {
  ...base,
  status: 'fulfilled',
  pack_url: 'https://sbm.example/tax/orders/ord_points/pack?t=abc',
  pack_expires_at: '2026-12-21T10:05:00.000Z',
  records_url: 'https://sbm.example/tax/orders/ord_points/records?t=abc',
};
const NOW = new Date('2026-11-21T10:06:00.000Z');

/** The names listed under a heading's list, in page order, tags removed. */
function listed(html: string, list: string): string[] {
  const body = html.split(`<ul class="${list}">`)[1]!.split('</ul>')[0]!;
  return [...body.matchAll(/<strong>(.*?)<\/strong>/g)].map((m) => m[1]!.replace(/&#39;/g, "'"));
}

const names = (side: 'point_to_check' | 'booked') =>
  CHECK_MECHANISM_IDS.filter((id) => CHECK_MECHANISMS[id].inPack === side).map(
    (id) => CHECK_MECHANISMS[id].name,
  );

describe('the order page says what the pack lists for the buyer to check', () => {
  for (const [state, view] of [
    ['paid, the pack being built', base],
    ['ready', ready],
  ] as const) {
    it(`${state}: points to check and what is booked without one`, async () => {
      const html = await orderStatusPage(view, NOW, null, {}).text();
      expect(html).toContain('What the pack lists for you to check');
      const points = listed(html, 'pack-points-check');
      expect(points).toEqual([
        'TAO or stake sent to another address',
        'TAO or stake received from another address',
        'Coldkey swap',
        'User liquidity closed by the chain (disable_lp or a dissolution)',
        "A day on which the chain's holdings differ from what the pack booked",
      ]);
      expect(points.slice(0, -1)).toEqual(names('point_to_check'));
      const booked = listed(html, 'pack-points-booked');
      expect(booked).toEqual(names('booked'));
      for (const expected of [
        'User liquidity positions (add, remove, modify)',
        'Crowdloan contributions, withdrawals and refunds',
        'Neuron registrations',
        'Transaction fees',
        'Reserved deposits (a proxy, an identity, a multisig)',
        "TAO to or from the coldkey's own EVM address",
      ]) {
        expect(booked).toContain(expected);
      }
      expect(html).toContain('a lease dividend paid before December 2025 came as TAO with no event');
    });
  }
});
