/**
 * BittyTax's records of a `staker-history.ts` history whose exchange side is written in an export that
 * trades TAO against USDT (`quoted-exchange-files.ts`), worked out here on their own: each trade is a trade
 * of TAO and USDT (both tokens, BittyTax's own treatment) valued at the USDT side's daily rate from the
 * prices file, as BittyTax values a trade against USDT, its fee left for BittyTax to price from the trade.
 * The exports never show the USDT arriving: what a trade spends beyond the USDT the history holds that UK
 * day (its sales' USDT counted first) is given as received at its market value that day (`Gift-Received`),
 * as the pack books USDT spent from nowhere; the USDT left at the end is spent with the rest.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { ukDay } from '../../../../pipeline/time/uk-day.js';
import { quotedTrade, quotedValues, usdtQuote } from './quoted-exchange-files.js';
import { bittytaxHistory, FINAL_SPEND } from './staker-files.js';
import type { Event, History } from './staker-history.js';

const n = (value: Decimal) => value.toFixed();
const time = (at: Date) => `${at.toISOString().slice(0, 19)}.000 UTC`;

/** USDT's rate of a UK day: the quote dated the day after. */
function usdtRate(day: string): Decimal {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return new CgtDecimal(usdtQuote(next));
}

export function quotedBittytax(h: History, pricesJson: string): string {
  const valued = quotedValues(h, pricesJson);
  const trades = h.events.filter(
    (e): e is Extract<Event, { kind: 'buy' | 'sell' }> => e.kind === 'buy' || e.kind === 'sell',
  );
  const rest = bittytaxHistory({
    ...valued,
    events: valued.events.filter((e) => e.kind !== 'buy' && e.kind !== 'sell'),
  });
  const rows = rest.trimEnd().split('\n');
  const byDay = new Map<string, typeof trades>();
  for (const e of trades) byDay.set(ukDay(e.at.getTime()), [...(byDay.get(ukDay(e.at.getTime())) ?? []), e]);
  let held = new CgtDecimal(0);
  for (const [day, list] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const rate = usdtRate(day);
    // The day's USDT acquired (its sales) before its USDT spent, as the engine counts a day.
    for (const e of list) if (e.kind === 'sell') held = held.plus(quotedTrade(e).total);
    for (const e of list) {
      const { total, fee } = quotedTrade(e);
      const value = total.times(rate);
      const feeCells = fee ? `${n(fee.quantity)},${fee.asset},` : ',,';
      const spent = (e.kind === 'buy' ? total : new CgtDecimal(0)).plus(
        fee?.asset === 'USDT' ? fee.quantity : 0,
      );
      if (spent.gt(held)) {
        const short = spent.minus(held);
        rows.push(`Gift-Received,${n(short)},USDT,${n(short.times(rate))},,,,,,,Kraken,${time(e.at)},`);
        held = held.plus(short);
      }
      held = held.minus(spent);
      rows.push(
        e.kind === 'buy'
          ? `Trade,${n(e.quantity)},TAO,${n(value)},${n(total)},USDT,${n(value)},${feeCells},Kraken,${time(e.at)},`
          : `Trade,${n(total)},USDT,${n(value)},${n(e.quantity)},TAO,${n(value)},${feeCells},Kraken,${time(e.at)},`,
      );
    }
  }
  if (held.gt(0)) rows.push(`Spend,,,,${n(held)},USDT,0,,,,Kraken,${time(FINAL_SPEND)},`);
  return `${rows.join('\n')}\n`;
}
