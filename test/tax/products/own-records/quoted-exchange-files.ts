/**
 * A `staker-history.ts` history as the exchanges that trade TAO against USDT rather than pounds export it
 * (Binance's transaction history, Gate's account book, KuCoin's filled orders, deposits, withdrawals and
 * earn files), and the values those exports leave to the pack, worked out here on their own for BittyTax:
 * each TAO row at the TAO/GBP rate of its UK day read back from the prices file the test gives `--prices`,
 * and a fee in USDT at the trade's own ratio (its share of the USDT traded). Nothing here uses the pack's
 * readers or valuation.
 *
 * The USDT side of a trade is its pounds at a fixed USD/GBP rate, rounded to 8 places as the exchanges
 * write it; a fee the history paid in pounds is paid in USDT (at the same rate) instead, so its value in
 * pounds is no longer the history's own but what the trade's ratio makes it.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { Event, Fee, History } from './staker-history.js';

const USDT_PER_GBP = new CgtDecimal('1.2734');

/**
 * USDT's GBP quote of a UTC date in the prices file: near 1 / 1.2734, moving by up to £0.0024 over a week so
 * that USDT has gains and losses of its own.
 */
export function usdtQuote(date: string): string {
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return new CgtDecimal('0.7841').plus(new CgtDecimal('0.0004').times(day % 7)).toFixed(8);
}
const usdt = (gbp: Decimal) => gbp.times(USDT_PER_GBP).toDecimalPlaces(8);
const n = (value: Decimal) => value.toFixed();

/** A trade's USDT side and its fee as the export writes them (a pounds fee becomes USDT). */
export function quotedTrade(e: Extract<Event, { kind: 'buy' | 'sell' }>) {
  return quoted(e);
}

function quoted(e: Extract<Event, { kind: 'buy' | 'sell' }>) {
  const total = usdt(e.gbp);
  const fee =
    e.fee === null ? null : e.fee.asset === 'GBP' ? { asset: 'USDT', quantity: usdt(e.fee.gbp) } : e.fee;
  return { total, fee };
}

/** Whether a history's exchange side can be written in these exports (none lists alpha). */
export function quotedCanWrite(h: History): boolean {
  return !h.events.some((e) => e.kind === 'swap');
}

const plainTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Binance's transaction history, as Binance writes it: a withdrawal's fee inside its amount (the row is what
 * left the account). The pack pairs it with the coldkey's smaller arrival and books the difference as the
 * fee, which the BittyTax side has as the history's fee disposal.
 */
export function binanceFiles(h: History): Record<string, string> {
  const out = ['User_ID,UTC_Time,Account,Operation,Coin,Change,Remark'];
  const row = (at: Date, operation: string, coin: string, change: string) =>
    out.push(`31415926,${plainTime(at)},Spot,${operation},${coin},${change},`);
  for (const e of h.events) {
    if (e.kind === 'buy' || e.kind === 'sell') {
      const { total, fee } = quoted(e);
      if (e.kind === 'buy') {
        row(e.at, 'Transaction Buy', 'TAO', n(e.quantity));
        row(e.at, 'Transaction Spend', 'USDT', `-${n(total)}`);
      } else {
        row(e.at, 'Transaction Sold', 'TAO', `-${n(e.quantity)}`);
        row(e.at, 'Transaction Revenue', 'USDT', n(total));
      }
      if (fee) row(e.at, 'Transaction Fee', fee.asset, `-${n(fee.quantity)}`);
    }
    if (e.kind === 'exchange-income') row(e.at, 'Staking Rewards', 'TAO', n(e.quantity));
    if (e.kind === 'withdraw') row(e.at, 'Withdraw', 'TAO', `-${n(e.quantity.plus(e.fee.quantity))}`);
    if (e.kind === 'deposit') row(e.arrives, 'Deposit', 'TAO', n(e.quantity));
  }
  return { 'binance-transactions.csv': `${out.join('\n')}\n` };
}

/**
 * Gate's account book: one row per change of a currency's balance, a trade's rows tied by their order. Its
 * withdrawal is one row with the fee inside, as Binance's.
 */
export function gateFiles(h: History): Record<string, string> {
  const out = ['no,time,action_desc,action_data,type,change_amount,amount,total'];
  let no = 0;
  const row = (at: Date, desc: string, data: string, code: string, change: string) => {
    no++;
    out.push(`${no},${plainTime(at)},${desc},${data},${code},${change},0,0`);
  };
  let id = 0;
  for (const e of h.events) {
    id++;
    if (e.kind === 'buy' || e.kind === 'sell') {
      const { total, fee } = quoted(e);
      const order = `O${id}`;
      const sign = e.kind === 'buy' ? ['', '-'] : ['-', ''];
      row(e.at, 'Order Filled', order, 'TAO', `${sign[0]}${n(e.quantity)}`);
      row(e.at, 'Order Filled', order, 'USDT', `${sign[1]}${n(total)}`);
      if (fee) row(e.at, 'Trading Fees', order, fee.asset, `-${n(fee.quantity)}`);
    }
    if (e.kind === 'exchange-income') row(e.at, 'HODL Interest', `H${id}`, 'TAO', n(e.quantity));
    if (e.kind === 'withdraw')
      row(e.at, 'Withdrawals', `W${id}`, 'TAO', `-${n(e.quantity.plus(e.fee.quantity))}`);
    if (e.kind === 'deposit') row(e.arrives, 'Deposits', `D${id}`, 'TAO', n(e.quantity));
  }
  return { 'gate-account-book.csv': `${out.join('\n')}\n` };
}

/** KuCoin's time in the account's clock, UTC+08:00, as its headers name it. */
const kucoinTime = (at: Date) => plainTime(new Date(at.getTime() + 8 * 3_600_000));

/** KuCoin's four files, by name: filled orders, deposits, withdrawals (their fee apart) and earn. */
export function kucoinFiles(h: History): Record<string, string> {
  const orders = [
    'UID,Account Type,Order ID,Order Time(UTC+08:00),Symbol,Side,Order Type,Order Price,Order Amount,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC+08:00),Fee,Fee Currency,Tax,Status',
  ];
  const deposits = [
    'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Deposit Address,Transfer Network,Status,Remarks',
  ];
  const withdrawals = [
    'UID,Account Type,Time(UTC+08:00),Coin,Amount,Fee,Hash,Withdrawal Address/Account,Transfer Network,Status,Remarks',
  ];
  const earn = [
    'UID,Account Type,Order ID,Time(UTC+08:00),Staked Coin,Product Type,Product Name,Earnings Coin,Earnings Type,Remarks,Amount,Amount（USDT）,Fee',
  ];
  let id = 0;
  for (const e of h.events) {
    id++;
    const t = kucoinTime(e.at);
    if (e.kind === 'buy' || e.kind === 'sell') {
      const { total, fee } = quoted(e);
      const price = total.div(e.quantity).toDecimalPlaces(4);
      orders.push(
        `27182818,mainAccount,o${id},${t},TAO-USDT,${e.kind.toUpperCase()},market,,,${n(price)},${n(e.quantity)},${n(total)},${n(total)},${t},${fee ? n(fee.quantity) : '0'},${fee ? fee.asset : 'USDT'},0,deal`,
      );
    }
    if (e.kind === 'exchange-income')
      earn.push(
        `27182818,mainAccount,e${id},${t},TAO,Staking,TAO Staking,TAO,Staking Rewards,,${n(e.quantity)},,0`,
      );
    if (e.kind === 'withdraw')
      withdrawals.push(
        `27182818,mainAccount,${t},TAO,${n(e.quantity)},${n(e.fee.quantity)},0xw${id},5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y,TAO,SUCCESS,`,
      );
    if (e.kind === 'deposit')
      deposits.push(
        `27182818,mainAccount,${kucoinTime(e.arrives)},TAO,${n(e.quantity)},0,0xd${id},5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY,TAO,SUCCESS,`,
      );
  }
  // A kind of history with nothing in it is not given (a file with a header and no rows is refused).
  const files = {
    'kucoin-spot-orders.csv': orders,
    'kucoin-deposits.csv': deposits,
    'kucoin-withdrawals.csv': withdrawals,
    'kucoin-earn.csv': earn,
  };
  return Object.fromEntries(
    Object.entries(files)
      .filter(([, lines]) => lines.length > 1)
      .map(([name, lines]) => [name, `${lines.join('\n')}\n`]),
  );
}

/**
 * The TAO/GBP rate of each UK day, read back from the prices file as published: a UK day's rate is the
 * quote dated the day after.
 */
export function dayRatesOf(pricesJson: string): Map<string, Decimal> {
  const { days } = JSON.parse(pricesJson) as { days: Array<{ date: string; gbp: string }> };
  const before = (date: string) =>
    new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return new Map(days.map((d) => [before(d.date), new CgtDecimal(d.gbp)]));
}

/**
 * The history as these exports leave it to be valued: every exchange row of TAO at its UK day's rate (every
 * event is between 08:00 and 16:00 UTC, so its UK day is its UTC date), a fee in USDT at the trade's ratio
 * (given to BittyTax as that many pounds), a fee in TAO at the day's rate. The chain's side is unchanged.
 */
export function quotedValues(h: History, pricesJson: string): History {
  const rates = dayRatesOf(pricesJson);
  const rate = (at: Date) => {
    const day = at.toISOString().slice(0, 10);
    const r = rates.get(day);
    if (r === undefined) throw new Error(`seed ${h.seed}: the prices file has no rate for ${day}`);
    return r;
  };
  const events = h.events.map((e): Event => {
    if (e.kind === 'buy' || e.kind === 'sell') {
      const gbp = e.quantity.times(rate(e.at));
      const { total, fee } = quoted(e);
      let valued: Fee | null = null;
      if (fee?.asset === 'USDT') {
        const pounds = gbp.times(fee.quantity).div(total).toDecimalPlaces(12);
        valued = { asset: 'GBP', quantity: pounds, gbp: pounds };
      } else if (fee) valued = { asset: 'TAO', quantity: fee.quantity, gbp: fee.quantity.times(rate(e.at)) };
      return { ...e, gbp, fee: valued };
    }
    if (e.kind === 'exchange-income') return { ...e, gbp: e.quantity.times(rate(e.at)) };
    if (e.kind === 'withdraw') return { ...e, fee: { ...e.fee, gbp: e.fee.quantity.times(rate(e.at)) } };
    return e;
  });
  return { ...h, events };
}
