/**
 * A wide holder's year as the pack's points read it (only what `packPoints` reads of a ledger, as
 * pack-points.test.ts): transfers with 60 counterparty addresses of every size, the largest £60,000 and the
 * smallest £1; two exchanges named as the buyer's with no records; eight subnets that ended; the opening and
 * provisional figures. The points view's tests and the order page's use it.
 */
import type { TaxYearLedger } from '../../../../pipeline/tax/products/compute-tax-year.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../../../pipeline/tax/uk-rules/cgt/cgt-types.js';

export const d = (value: string) => new CgtDecimal(value);
/** A distinct address a counterparty `i` has (the pack reads them as text). */
export const address = (i: number) =>
  `5Counterparty${String(i).padStart(3, '0')}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;

/** A wide holder's year: transfers with 60 addresses, the largest £60,000, the smallest £1. */
export function bigLedger(): TaxYearLedger {
  const flags: PackFlag[] = [];
  const txs: CgtTransaction[] = [];
  for (let i = 0; i < 60; i += 1) {
    // Two transfers with each address, of very different sizes: the pounds fall from £60,000 to £1.
    for (const [part, share] of [
      [0, 0.75],
      [1, 0.25],
    ] as const) {
      const ref = `event ${1000 + i * 2 + part}/2`;
      const date = `2025-${String(5 + (i % 7)).padStart(2, '0')}-${String(1 + part + (i % 20)).padStart(2, '0')}`;
      const gbp = (Math.round(60_000 / (i + 1) ** 2.7) || 1) * share;
      flags.push({
        date,
        kind: 'transfer-out',
        text: `Transfer ${1000 + i * 2 + part}/2: TAO sent to ${address(i)} (outside this order), taken at its market value.`,
        ref,
      });
      txs.push({
        at: new Date(`${date}T12:00:00Z`),
        asset: 'TAO',
        action: 'dispose',
        quantity: d((gbp / 300).toFixed(9)),
        gbp: d(gbp.toFixed(2)),
        ref,
        kind: 'transfer-out',
        counterparty: address(i),
      });
    }
  }
  for (let netuid = 40; netuid < 48; netuid += 1) {
    flags.push({
      date: '2025-10-01',
      kind: 'ended',
      text: `Subnet ${netuid} was dissolved on 2025-10-01: its alpha pool is worth nothing now.`,
    });
  }
  flags.push(
    { date: '2025-04-05', kind: 'opening', text: 'The record opens at the end of 2025-04-05.' },
    { date: '2026-04-05', kind: 'provisional', text: 'The record ends on 2026-04-09: costs provisional.' },
  );
  const exchangeMove = (label: string, counterparty: string, day: string) => ({
    chainRef: `event ${day}`,
    at: new Date(`2025-08-${day}T12:00:00Z`),
    asset: 'TAO',
    quantity: d('4'),
    direction: 'out' as const,
    counterparty,
    label,
    record: null,
  });
  // Only what the points read of a ledger (as pack-points.test.ts).
  return {
    opening: { date: '2025-04-05' },
    days: [{ date: '2025-04-06' }, { date: '2026-04-05' }],
    mapping: { flags },
    chainTransactions: txs,
    combined: {
      ownTransfers: [
        exchangeMove('Binance deposit', address(900), '01'),
        exchangeMove('Kraken deposit', address(901), '02'),
      ],
    },
    reconciliation: { unexplained: [] },
  } as unknown as TaxYearLedger;
}
