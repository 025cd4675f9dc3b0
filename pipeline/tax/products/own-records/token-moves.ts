/**
 * Deposits and withdrawals of tokens the chain record does not hold (USDT, BTC: anything but TAO and alpha),
 * which only the buyer's own records show. A withdrawal from one exchange and a deposit of the same token at
 * another (or another wallet of the same file) soon after it, no larger than what left, is a move between
 * the buyer's own holdings: no disposal, no acquisition (CRYPTO22150 on transfers between one's own wallets).
 *
 * A deposit that no withdrawal in the records explains came from somewhere the records do not show: it is
 * acquired at its market value that day (the daily GBP rate of its UK day), and a point to check says so and
 * which export would give its real cost. An unexplained withdrawal books nothing and is a point to check.
 */
import { ukDay } from '../../../time/uk-day.js';
import { HOUR_MS } from '../../../time/utc-day.js';
import { CgtDecimal, plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../uk-rules/cgt/cgt-transactions.js';
import type { OwnRecord } from './customer-inputs.js';
import { TRANSFER_WINDOW_MS } from './pair-transfers.js';

/** What may be taken off a withdrawal on the way: the larger of 2 % of it and one unit of a stablecoin. */
const ON_THE_WAY_SHARE = new CgtDecimal('0.02');
const ON_THE_WAY_FLOOR = new CgtDecimal('1');
const SLACK = new CgtDecimal('0.00000001');

/**
 * The records of token moves that pair: each deposit with the earliest unpaired withdrawal of its token from
 * another file or wallet, made at most `TRANSFER_WINDOW_MS` before it (or a minute after, clocks differing),
 * and at least as large, at most a network fee larger.
 */
export function tokenMoves(records: readonly OwnRecord[]): Set<OwnRecord> {
  const withdrawals = records
    .filter((r) => r.kind === 'withdrawal')
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const deposits = records
    .filter((r) => r.kind === 'deposit')
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const paired = new Set<OwnRecord>();
  for (const deposit of deposits) {
    const at = deposit.at.getTime();
    const found = withdrawals.find((w) => {
      if (paired.has(w) || w.asset !== deposit.asset) return false;
      if (w.source === deposit.source && w.wallet === deposit.wallet) return false;
      const before = at - w.at.getTime();
      if (before > TRANSFER_WINDOW_MS || before < -60_000) return false;
      const gap = w.quantity.minus(deposit.quantity);
      const allowed = CgtDecimal.max(w.quantity.times(ON_THE_WAY_SHARE), ON_THE_WAY_FLOOR);
      return gap.gte(SLACK.negated()) && gap.lte(allowed);
    });
    if (found) {
      paired.add(found);
      paired.add(deposit);
    }
  }
  return paired;
}

/** The point to check for a token move no other record explains. */
export function tokenMoveFlag(record: OwnRecord): PackFlag {
  const what = `${plainDecimal(record.quantity)} ${record.asset}`;
  const where = `${record.source} line ${record.line}`;
  const when = `${record.at.toISOString().slice(0, 16)}Z`;
  const hours = TRANSFER_WINDOW_MS / HOUR_MS;
  if (record.kind === 'deposit') {
    const value = record.dayRate ? ` (£${record.quantity.times(record.dayRate).toFixed(2)})` : '';
    return {
      date: ukDay(record.at.getTime()),
      kind: 'own-records',
      text: `${where}: a deposit of ${what} on ${when} that no withdrawal in your other records explains within ${hours} hours: its cost is taken as its market value that day${value}, at the daily GBP rate of ${record.asset}. For its real cost, add the export of the exchange or wallet it came from (where it was bought: that exchange's own transaction history), and the pack pairs the two.`,
    };
  }
  return {
    date: ukDay(record.at.getTime()),
    kind: 'own-records',
    text: `${where}: a withdrawal of ${what} on ${when} that no deposit in your other records matches within ${hours} hours: nothing is booked for it (a move to a wallet of yours). If it went to someone else, it is a disposal: check it, or add the export of the wallet or exchange it went to.`,
  };
}
