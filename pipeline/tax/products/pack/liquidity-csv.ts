/**
 * liquidity.csv: every movement of a user liquidity position on the swap pallet (actions/liquidity-actions.ts),
 * with what went in or came out and its value in pounds. The pack books entering as a disposal (beneficial
 * ownership passes, CRYPTO61620); the no-gain-no-loss approach of HMRC's consultation outcome of 26 November 2025
 * is not law for 2025/26, and these columns are what either reading needs: the principal in and out of each
 * position (quantities and values) and the fees, income when received (CRYPTO61213), in income.csv too.
 */
import { Decimal } from 'decimal.js';
import { fixedToText } from '../../../amounts/rao.js';
import { fixedDecimal, GBP_PLACES } from '../../uk-rules/cgt/cgt-decimal.js';
import type { TaxYearLedger } from '../compute-tax-year.js';
import { csv } from './csv-text.js';

export const LIQUIDITY_COLUMNS = [
  'coldkey',
  'time_utc',
  'date_uk',
  'block',
  'event_index',
  'kind',
  'netuid',
  'position_ids',
  'liquidity',
  'direction',
  'tao_principal',
  'alpha_principal',
  'fee_tao',
  'fee_alpha',
  'principal_gbp',
  'fees_gbp',
  'treatment',
] as const;

const units = (rao: bigint | null) => (rao === null ? null : fixedToText(rao, 9));
const gbp = (value: Decimal) => fixedDecimal(value, GBP_PLACES);

/**
 * One row per liquidity action. `principal_gbp`: the position's value booked (what entering gave, or what leaving
 * paid back of the principal); `fees_gbp`: the fees' value at receipt, income (a refund's alpha fees are part of
 * the alpha the chain staked and cannot be told apart: left blank there, as is a refund's alpha, measured).
 */
export function liquidityCsv(ledger: TaxYearLedger): string {
  const rows = ledger.mapping.events
    .filter(({ action }) => action.kind === 'liquidity' && action.liquidity)
    .map(({ event, action, date, transactions, treatment, feeIncome }) => {
      const figures = action.liquidity!;
      const claims = transactions.filter((tx) => tx.asset.startsWith('liquidity:'));
      const principal = claims.reduce((sum, tx) => sum.add(tx.gbp), new Decimal(0));
      // The fees' value at receipt: income, the same figure as income.csv's row of kind liquidity fees.
      const fees = figures.direction === 'out' && !figures.refund ? (feeIncome?.gbp ?? new Decimal(0)) : null;
      return [
        event.coldkey,
        event.time,
        date,
        event.block,
        event.event_index,
        event.kind,
        figures.netuid,
        figures.positions.map((p) => p.position_id).join(' '),
        figures.positions.reduce((sum, p) => sum + p.liquidity, 0n).toString(),
        figures.refund ? 'refund' : figures.direction,
        units(figures.taoRao),
        units(figures.alphaRao),
        figures.direction === 'out' && !figures.refund ? units(figures.feeTaoRao) : null,
        figures.direction === 'out' && !figures.refund ? units(figures.feeAlphaRao) : null,
        gbp(principal),
        fees === null ? null : gbp(fees),
        treatment,
      ];
    });
  return csv(LIQUIDITY_COLUMNS, rows);
}
