import { ukDayEndMs } from '../../time/uk-day.js';
import type { CgtPool, CgtReport, CgtTransaction } from '../uk-rules/cgt/cgt-types.js';
import { computeGains } from '../uk-rules/cgt/compute-gains.js';

/**
 * The pools at the end of the year's last day. The engine gives them with each tax year that has disposals,
 * and with each year its record spans (`yearEnds`: a year without disposals matched nothing, so its pools are
 * every acquisition up to its end, as computing the gains again up to that day gives, and at no cost; a pool
 * emptied in an earlier year is not one of them). A year the record does not reach is computed up to its end.
 */
export function yearClosingPools(
  gains: CgtReport,
  label: string,
  transactions: readonly CgtTransaction[],
  lastDate: string,
): CgtPool[] {
  const year = gains.taxYears.find((y) => y.taxYear === label);
  if (year) return year.closingPools;
  const spanned = gains.yearEnds.find((y) => y.taxYear === label);
  if (spanned) return spanned.pools;
  const end = ukDayEndMs(lastDate);
  return computeGains(transactions.filter((tx) => tx.at.getTime() < end)).pools;
}
