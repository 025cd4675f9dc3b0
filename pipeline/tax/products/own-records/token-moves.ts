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
import type { Decimal } from 'decimal.js';
import { ukDay } from '../../../time/uk-day.js';
import { HOUR_MS } from '../../../time/utc-day.js';
import { CgtDecimal, plainDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import type { PackFlag } from '../../uk-rules/cgt/cgt-transactions.js';
import type { CgtTransaction } from '../../uk-rules/cgt/cgt-types.js';
import type { OwnRecord } from './customer-inputs.js';
import { TRANSFER_WINDOW_MS } from './pair-transfers.js';
import { isChainAsset } from './record-asset.js';

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

/**
 * A token other than TAO and alpha that the records spend before they show it arriving (USDT paid for TAO
 * on an exchange whose export lists only the TAO rows, or the USDT's own purchase in a file not given):
 * the part short is taken as acquired that day at the disposal's own value, its market value (HMRC's
 * market value where no cost is known), and a point to check names the record and the export that would
 * give its real cost. TAO and alpha are not covered here: a record that overdraws them is refused.
 * Per asset and UK day, acquisitions count before disposals, as the engine counts them.
 */
export function coverTokenShortfalls(
  rows: readonly CgtTransaction[],
  flags: PackFlag[],
  refOf: (tx: CgtTransaction) => string,
): CgtTransaction[] {
  const held = new Map<string, Decimal>();
  const byDay = new Map<string, CgtTransaction[]>();
  for (const tx of rows) {
    if (isChainAsset(tx.asset)) continue;
    const day = ukDay(tx.at.getTime());
    byDay.set(day, [...(byDay.get(day) ?? []), tx]);
  }
  const added: CgtTransaction[] = [];
  const points = new Map<
    string,
    { ref: string; asset: string; day: string; quantity: Decimal; gbp: Decimal }
  >();
  for (const [day, list] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const tx of list)
      if (tx.action === 'acquire')
        held.set(tx.asset, (held.get(tx.asset) ?? new CgtDecimal(0)).plus(tx.quantity));
    for (const tx of list) {
      if (tx.action !== 'dispose') continue;
      const have = held.get(tx.asset) ?? new CgtDecimal(0);
      if (have.gte(tx.quantity)) {
        held.set(tx.asset, have.minus(tx.quantity));
        continue;
      }
      const short = tx.quantity.minus(have);
      const gbp = tx.gbp.times(short).div(tx.quantity);
      added.push({
        at: tx.at,
        asset: tx.asset,
        action: 'acquire',
        quantity: short,
        gbp,
        ref: `${refOf(tx)} from elsewhere`,
        kind: 'record',
      });
      held.set(tx.asset, new CgtDecimal(0));
      // One point per record and token: a trade's own and its fee's together.
      const key = `${refOf(tx)}\u0000${tx.asset}\u0000${day}`;
      const seen = points.get(key);
      points.set(key, {
        ref: refOf(tx),
        asset: tx.asset,
        day,
        quantity: short.plus(seen?.quantity ?? 0),
        gbp: gbp.plus(seen?.gbp ?? 0),
      });
    }
  }
  for (const p of points.values()) {
    flags.push({
      date: p.day,
      kind: 'own-records',
      text: `${p.ref}: ${plainDecimal(p.quantity)} ${p.asset} spent on ${p.day} that your records do not show arriving: taken as acquired that day at its market value (£${p.gbp.toFixed(2)}, the trade's own value). For its real cost, add the export that shows it arriving (the deposit, and the exchange history where it was bought).`,
    });
  }
  return added;
}
