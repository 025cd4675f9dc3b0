/**
 * `make demo`'s history: from two days before the previous UK tax year's 6 April, so that year and the one
 * under way are both on sale, on mainnet's runtimes by date, in few blocks (10-minute blocks, the sandbox's
 * longest, once it is 600 days long), and the lines it prints to buy each year on sale.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_BLOCKS, DEMO_MAX_BLOCK_TIME_MS, demoHistory } from '../../pipeline/demo/demo-command.js';
import { type DemoOrders, demoOrderLines } from '../../pipeline/demo/demo-orders.js';
import { DATED_HISTORY_LATEST_START } from '../../pipeline/devnet/options.js';
import { addDays, DAY_MS, epochDay } from '../../pipeline/time/utc-day.js';

const at = (iso: string) => Date.parse(iso);

describe('the demo history', () => {
  it.each([
    ['late in tax year 2026/27', '2026-11-28T02:38:00Z', '2025-04-04'],
    ['early in tax year 2026/27 (BST)', '2026-04-10T12:00:00Z', '2025-04-04'],
    ['on 5 April, the last day of 2025/26', '2026-04-05T12:00:00Z', '2024-04-04'],
  ])('%s: begins two days before the previous tax year’s 6 April', (_name, now, firstDay) => {
    const history = demoHistory(at(now));
    expect(history.firstDay).toBe(firstDay);
    expect(history.historyDays).toBe(epochDay(now.slice(0, 10)) - epochDay(firstDay));
    expect(history.runtimesByDate).toBe(true);
  });

  it('never begins after the last day a history by mainnet’s dates can begin on', () => {
    // 2027/28: the previous year's 6 April is 2026-04-06, after the sandbox's latest dated genesis.
    const history = demoHistory(at('2027-06-01T12:00:00Z'));
    expect(history.firstDay).toBe(DATED_HISTORY_LATEST_START);
    expect(history.runtimesByDate).toBe(true);
  });

  it.each(['2026-11-28T02:38:00Z', '2027-04-04T23:00:00Z'])(
    'on %s: a history of 600 days or more runs 10-minute blocks, the sandbox’s longest',
    (now) => {
      const history = demoHistory(at(now));
      expect(history.historyDays).toBeGreaterThanOrEqual(600);
      expect(history.blockTimeMs).toBe(DEMO_MAX_BLOCK_TIME_MS);
    },
  );

  it.each(['2026-04-07T00:00:00Z', '2026-09-01T12:00:00Z'])(
    'on %s: a shorter history holds at most DEMO_BLOCKS blocks, in whole seconds, and nearly all of them',
    (now) => {
      const history = demoHistory(at(now));
      expect(history.historyDays).toBeLessThan(600);
      const blocks = (history.historyDays * DAY_MS) / history.blockTimeMs;
      expect(history.blockTimeMs % 1000).toBe(0);
      expect(blocks).toBeLessThanOrEqual(DEMO_BLOCKS);
      // One second less per block would take more than DEMO_BLOCKS blocks.
      expect((history.historyDays * DAY_MS) / (history.blockTimeMs - 1000)).toBeGreaterThan(DEMO_BLOCKS);
    },
  );

  it('--history-days: a short history keeps the sandbox default runtimes and 12-second blocks at least', () => {
    const history = demoHistory(at('2026-11-28T02:38:00Z'), 3);
    expect(history).toEqual({
      historyDays: 3,
      blockTimeMs: 12_000,
      firstDay: addDays('2026-11-28', -3),
      runtimesByDate: false,
    });
  });
});

describe('the order lines the demo prints', () => {
  const orders = {
    standInUrl: 'http://127.0.0.1:12111',
    envFile: 'data/demo-orders.env',
  } as DemoOrders;
  const base = 'http://127.0.0.1:8787';

  it('one checkout per pack on sale, each naming its SKU and the coldkey', () => {
    const lines = demoOrderLines(
      orders,
      base,
      '5Demo',
      [
        { sku: 'uk-2025-26', tax_year: '2025/26' },
        { sku: 'uk-2026-27', tax_year: '2026/27' },
      ],
      'data/demo-orders.log',
    );
    expect(lines).toContain(
      'Tax packs on sale: 2025/26 (uk-2025-26) and 2026/27 (uk-2026-27). Checkout talks to the local Stripe STAND-IN at http://127.0.0.1:12111, not to Stripe:',
    );
    for (const [sku, year] of [
      ['uk-2025-26', '2025/26'],
      ['uk-2026-27', '2026/27'],
    ]) {
      const heading = lines.indexOf(`  # tax year ${year}:`);
      expect(heading).toBeGreaterThan(0);
      expect(lines[heading + 1]).toBe(
        `  curl -s -X POST ${base}/tax/checkout -H 'content-type: application/json' \\`,
      );
      expect(lines[heading + 2]).toBe(
        `    -d '{"sku": "${sku}", "coldkeys": ["5Demo"]}'     # → order_id, checkout_url`,
      );
    }
  });

  it('says the pack arrives by itself, on the cron’s schedule, and asks for no `orders fulfil` by hand', () => {
    const text = demoOrderLines(
      orders,
      base,
      '5Demo',
      [{ sku: 'uk-2025-26', tax_year: '2025/26' }],
      'data/demo-orders.log',
    ).join('\n');
    expect(text).toContain(
      'the demo runs `orders fulfil` every minute and\n`orders reconcile` every 15 minutes',
    );
    expect(text).toContain('data/demo-orders.log');
    expect(text).not.toMatch(/^ {2}npm run -s sbm-gateway -- orders fulfil/m);
  });

  it('nothing on sale: says so, and prints no checkout', () => {
    const lines = demoOrderLines(orders, base, '5Demo', [], 'data/demo-orders.log');
    expect(lines[1]).toMatch(/^No tax pack is on sale/);
    expect(lines.some((line) => line.includes('/tax/checkout'))).toBe(false);
  });
});
