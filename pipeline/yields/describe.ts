/** One line per share pool day read, and the yields in one line, for the operator. */
import type { TaxYields } from '../contract/tax-published.js';
import type { PoolDayReport } from './read-share-pools.js';

export function describeDay(report: PoolDayReport): string {
  return (
    `share pools ${report.day}${report.partial ? ' (partial)' : ''}: block ${report.block} ` +
    `(spec ${report.specVersion}), ${report.pools} pools, ${report.seconds.toFixed(1)} s`
  );
}

export function describeYields(yields: TaxYields): string {
  const percent = (rate: number | null) => (rate === null ? 'n/a' : `${(rate * 100).toFixed(2)} %`);
  const { from, to, days } = yields.window;
  return (
    `yields ${from}..${to} (${days} day(s)): root ${percent(yields.root.yield)}, ` +
    `all subnets (alpha) ${percent(yields.alpha.yield)}, ${yields.subnets.length} subnets`
  );
}
