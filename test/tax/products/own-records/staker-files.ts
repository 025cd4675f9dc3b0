/**
 * The files of a `staker-history.ts` history: the chain side as a pack writes `cgt-input.csv`, the
 * buyer's addresses and opening, the exchange side in each record format as a person would give it, and the
 * whole history as BittyTax transaction records (for BittyTax itself, independent of the pack's readers).
 */
import type { Decimal } from 'decimal.js';
import { binanceFiles, gateFiles, kucoinFiles, quotedCanWrite, usdtQuote } from './quoted-exchange-files.js';
import {
  type Event,
  EXCHANGE_DEPOSIT,
  EXCHANGE_HOT,
  type History,
  RECORD_NAME,
  SECOND_COLDKEY,
} from './staker-history.js';

export type RecordFormat = 'plain' | 'koinly' | 'bittytax' | 'kraken-ledgers' | QuotedFormat;
/** Exports of trades against USDT: they give no pounds, so the pack values them (`quoted-exchange-files.ts`). */
export type QuotedFormat = 'binance-transactions' | 'gate' | 'kucoin';
export const QUOTED_FORMATS: readonly QuotedFormat[] = ['binance-transactions', 'gate', 'kucoin'];
export const RECORD_FORMATS: readonly RecordFormat[] = [
  'plain',
  'koinly',
  'bittytax',
  'kraken-ledgers',
  ...QUOTED_FORMATS,
];
export const isQuoted = (format: RecordFormat): format is QuotedFormat =>
  (QUOTED_FORMATS as readonly string[]).includes(format);

/** The day after the history on which BittyTax is told every holding left for nothing (its pools' cost). */
export const FINAL_SPEND = new Date('2026-03-30T12:00:00Z');

const n = (value: Decimal) => value.toFixed();
const iso = (at: Date) => at.toISOString();
const plainTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');
const bittyTime = (at: Date) => `${at.toISOString().slice(0, 19)}.000 UTC`;

export function cgtInput(h: History): string {
  const rows = ['datetime,asset,action,quantity,gbp,fee_gbp,kind,counterparty'];
  const row = (
    at: Date,
    asset: string,
    action: string,
    q: Decimal,
    gbp: Decimal,
    kind = '',
    counterparty = '',
  ) => rows.push(`${iso(at)},${asset},${action},${n(q)},${n(gbp)},,${kind},${counterparty}`);
  const o = h.opening;
  row(o.at, 'TAO', 'acquire', o.chainTao, o.marketTao, 'opening');
  row(o.at, 'alpha:12:100', 'acquire', o.chainAlpha, o.marketAlpha, 'opening');
  for (const e of h.events) {
    if (e.kind === 'withdraw')
      row(e.arrives, 'TAO', 'acquire', e.quantity, e.gbp, 'transfer-in', EXCHANGE_HOT);
    if (e.kind === 'deposit')
      row(e.at, 'TAO', 'dispose', e.quantity, e.gbp, 'transfer-out', EXCHANGE_DEPOSIT);
    if (e.kind === 'exchange') {
      row(e.at, e.from, 'dispose', e.given, e.gbp);
      row(e.at, e.to, 'acquire', e.received, e.gbp);
    }
    if (e.kind === 'chain-income') row(e.at, e.asset, 'acquire', e.quantity, e.gbp, 'income');
    if (e.kind === 'to-coldkey2')
      row(e.at, 'TAO', 'dispose', e.quantity, e.gbp, 'transfer-out', SECOND_COLDKEY);
    if (e.kind === 'from-coldkey2')
      row(e.at, 'TAO', 'acquire', e.quantity, e.gbp, 'transfer-in', SECOND_COLDKEY);
  }
  return `${rows.join('\n')}\n`;
}

/**
 * The history's TAO prices as the published `tax/fiat-prices.json`: a UK day's rate is the quote dated the
 * day after, so each day's price is written under the next date. The exchange rows Kraken, Binance, Gate
 * and KuCoin give no pounds for (trades against USDT, rewards, withdrawal fees) are valued at it, as the history
 * valued them. Like the published file it has every day: a day the history did not price has a rate of its
 * own (the last priced day's plus £7.31 a day), so a row valued at a neighbouring day's rate comes out wrong
 * rather than refused.
 */
export function fiatPricesFile(h: History): string {
  const DAY = 86_400_000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const priced = [...h.taoPrices.keys()].sort();
  const days = [];
  let last = h.taoPrices.get(priced[0]!)!;
  for (let ms = Date.parse(`${priced[0]}T00:00:00Z`); dayOf(ms) <= priced.at(-1)!; ms += DAY) {
    last = h.taoPrices.get(dayOf(ms)) ?? last.plus('7.31');
    days.push({ date: dayOf(ms + DAY), usd: null, gbp: last.toFixed(8), source: 'history' });
  }
  // USDT's own daily rates beside TAO's (the USDT exports' trades are valued at them).
  const usdt = days.map((d) => ({
    date: d.date,
    usd: '1.00000000',
    gbp: usdtQuote(d.date),
    source: 'history',
  }));
  return JSON.stringify({ days, assets: { USDT: usdt } });
}

export function addresses(): string {
  return `address,label\n${EXCHANGE_DEPOSIT},Kraken deposit\n${SECOND_COLDKEY},my second coldkey\n`;
}

/** Entered figures or last year's pools.csv; null for the pack's market-value opening. */
export function openingFile(h: History): string | null {
  const o = h.opening;
  const tao = o.chainTao.plus(o.exchangeTao);
  if (o.mode === 'entered')
    return `asset,quantity,cost_gbp\nTAO,${n(tao)},${n(o.costTao)}\nSN12-ALPHA-R100,${n(o.chainAlpha)},${n(o.costAlpha)}\n`;
  if (o.mode === 'pools')
    return `asset,quantity,cost_gbp,as_at,kind\nTAO,${n(tao)},${n(o.costTao)},${o.day},pool\nalpha:12:100,${n(o.chainAlpha)},${n(o.costAlpha)},${o.day},pool\n`;
  return null;
}

/** Whether a format can say every exchange event of the history (Kraken, Binance, Gate and KuCoin list no alpha). */
export function canWrite(h: History, format: RecordFormat): boolean {
  if (isQuoted(format)) return quotedCanWrite(h);
  return format !== 'kraken-ledgers' || !h.events.some((e) => e.kind === 'swap');
}

/** The exchange's side of the history in one record format: its files by name. */
export function recordsFiles(h: History, format: RecordFormat): Record<string, string> {
  if (format === 'binance-transactions') return binanceFiles(h);
  if (format === 'gate') return gateFiles(h);
  if (format === 'kucoin') return kucoinFiles(h);
  return { [`${format}.csv`]: recordsFile(h, format) };
}

function recordsFile(h: History, format: Exclude<RecordFormat, QuotedFormat>): string {
  const exchange = h.events.filter((e) =>
    ['buy', 'sell', 'exchange-income', 'withdraw', 'deposit', 'swap'].includes(e.kind),
  );
  const writer = { plain, koinly, bittytax: bittytaxRecords, 'kraken-ledgers': kraken }[format];
  return `${writer(exchange).join('\n')}\n`;
}

function plain(events: readonly Event[]): string[] {
  const out = ['time_utc,type,asset,quantity,gbp_value,fee'];
  const row = (
    at: Date,
    type: string,
    asset: string,
    q: Decimal,
    gbp: Decimal | null,
    fee: Decimal | null = null,
  ) => out.push(`${plainTime(at)},${type},${asset},${n(q)},${gbp ? n(gbp) : ''},${fee ? n(fee) : ''}`);
  for (const e of events) {
    if (e.kind === 'buy' || e.kind === 'sell') {
      row(e.at, e.kind, 'TAO', e.quantity, e.gbp, e.fee?.gbp ?? null);
      // A fee paid in TAO is also those TAO disposed of at its value.
      if (e.fee?.asset === 'TAO') row(e.at, 'fee', 'TAO', e.fee.quantity, e.fee.gbp);
    }
    if (e.kind === 'exchange-income') row(e.at, 'income', 'TAO', e.quantity, e.gbp);
    if (e.kind === 'withdraw') {
      row(e.at, 'withdrawal', 'TAO', e.quantity, null);
      row(e.at, 'fee', 'TAO', e.fee.quantity, e.fee.gbp);
    }
    if (e.kind === 'deposit') row(e.arrives, 'deposit', 'TAO', e.quantity, null);
    if (e.kind === 'swap') {
      // The alpha fee is a cost of both sides, half each (CRYPTO22150, as BittyTax apportions it).
      const half = e.fee.gbp.div(2);
      row(e.at, 'sell', 'TAO', e.tao, e.gbp, half);
      row(e.at, 'buy', RECORD_NAME['alpha:12:100'], e.alpha, e.gbp, half);
      row(e.at, 'fee', RECORD_NAME['alpha:12:100'], e.fee.quantity, e.fee.gbp);
    }
  }
  return out;
}

function koinly(events: readonly Event[]): string[] {
  const out = [
    'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
  ];
  const row = (at: Date, sent: string, received: string, fee: string, worth: Decimal | null, label = '') =>
    out.push(`${plainTime(at)} UTC,${sent},${received},${fee},${worth ? `${n(worth)},GBP` : ','},${label},,`);
  const fee = (f: { asset: string; quantity: Decimal } | null) => (f ? `${n(f.quantity)},${f.asset}` : ',');
  for (const e of events) {
    if (e.kind === 'buy') row(e.at, `${n(e.gbp)},GBP`, `${n(e.quantity)},TAO`, fee(e.fee), null);
    if (e.kind === 'sell') row(e.at, `${n(e.quantity)},TAO`, `${n(e.gbp)},GBP`, fee(e.fee), null);
    if (e.kind === 'exchange-income') row(e.at, ',', `${n(e.quantity)},TAO`, ',', e.gbp, 'staking');
    if (e.kind === 'withdraw') row(e.at, `${n(e.quantity)},TAO`, ',', fee(e.fee), e.gbp);
    if (e.kind === 'deposit') row(e.arrives, ',', `${n(e.quantity)},TAO`, ',', null);
    if (e.kind === 'swap') {
      const alpha = RECORD_NAME['alpha:12:100'];
      row(e.at, `${n(e.tao)},TAO`, `${n(e.alpha)},${alpha}`, `${n(e.fee.quantity)},${alpha}`, e.gbp);
    }
  }
  return out;
}

const BITTYTAX_HEADER =
  'Type,Buy Quantity,Buy Asset,Buy Value in GBP,Sell Quantity,Sell Asset,Sell Value in GBP,Fee Quantity,Fee Asset,Fee Value in GBP,Wallet,Timestamp,Note';

type Leg = [Decimal, string, Decimal | null] | null;

function bittyRow(type: string, at: Date, buy: Leg, sell: Leg, fee: Leg, wallet: string): string {
  const leg = (l: Leg) => (l ? `${n(l[0])},${l[1]},${l[2] ? n(l[2]) : ''}` : ',,');
  return `${type},${leg(buy)},${leg(sell)},${leg(fee)},${wallet},${bittyTime(at)},`;
}

/** The exchange's events as BittyTax records, as a person might keep them (wallet Kraken). */
function bittytaxRecords(events: readonly Event[]): string[] {
  return [BITTYTAX_HEADER, ...events.flatMap((e) => exchangeRows(e))];
}

function exchangeRows(e: Event): string[] {
  const fee = (f: { asset: string; quantity: Decimal; gbp: Decimal } | null): Leg =>
    f ? [f.quantity, f.asset, f.asset === 'GBP' ? null : f.gbp] : null;
  switch (e.kind) {
    case 'buy':
      return [bittyRow('Trade', e.at, [e.quantity, 'TAO', null], [e.gbp, 'GBP', null], fee(e.fee), 'Kraken')];
    case 'sell':
      return [bittyRow('Trade', e.at, [e.gbp, 'GBP', null], [e.quantity, 'TAO', null], fee(e.fee), 'Kraken')];
    case 'exchange-income':
      return [bittyRow('Staking-Reward', e.at, [e.quantity, 'TAO', e.gbp], null, null, 'Kraken')];
    case 'withdraw':
      return [bittyRow('Withdrawal', e.at, null, [e.quantity, 'TAO', null], fee(e.fee), 'Kraken')];
    case 'deposit':
      return [bittyRow('Deposit', e.arrives, [e.quantity, 'TAO', null], null, null, 'Kraken')];
    case 'swap': {
      const alpha = RECORD_NAME['alpha:12:100'];
      return [
        bittyRow(
          'Trade',
          e.at,
          [e.alpha, alpha, e.gbp],
          [e.tao, 'TAO', e.gbp],
          [e.fee.quantity, alpha, e.fee.gbp],
          'Kraken',
        ),
      ];
    }
    default:
      return [];
  }
}

function kraken(events: readonly Event[]): string[] {
  const out = ['"txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance"'];
  let id = 0;
  const row = (
    ref: string,
    at: Date,
    type: string,
    subtype: string,
    asset: string,
    amount: string,
    fee: string,
  ) => {
    id++;
    out.push(
      [
        `L${String(id).padStart(5, '0')}-AAAAA-AAAAAA`,
        ref,
        plainTime(at),
        type,
        subtype,
        'currency',
        asset,
        'spot / main',
        amount,
        fee,
        '0',
      ]
        .map((c) => `"${c}"`)
        .join(','),
    );
  };
  const feeOf = (f: { asset: string; quantity: Decimal } | null, asset: string) =>
    f && f.asset === asset ? n(f.quantity) : '0';
  for (const e of events) {
    const ref = `R${String(id).padStart(5, '0')}-BBBBB-BBBBBB`;
    if (e.kind === 'buy') {
      row(ref, e.at, 'trade', '', 'ZGBP', `-${n(e.gbp)}`, feeOf(e.fee, 'GBP'));
      row(ref, e.at, 'trade', '', 'TAO', n(e.quantity), feeOf(e.fee, 'TAO'));
    }
    if (e.kind === 'sell') {
      row(ref, e.at, 'trade', '', 'TAO', `-${n(e.quantity)}`, feeOf(e.fee, 'TAO'));
      row(ref, e.at, 'trade', '', 'ZGBP', n(e.gbp), feeOf(e.fee, 'GBP'));
    }
    if (e.kind === 'exchange-income') row(ref, e.at, 'earn', 'reward', 'TAO', n(e.quantity), '0');
    if (e.kind === 'withdraw')
      row(ref, e.at, 'withdrawal', '', 'TAO', `-${n(e.quantity)}`, n(e.fee.quantity));
    if (e.kind === 'deposit') row(ref, e.arrives, 'deposit', '', 'TAO', n(e.quantity), '0');
  }
  return out;
}

/**
 * The whole history as BittyTax records: the exchange's rows as above, the chain's own (stakes as trades,
 * income as staking, transfers between the person's wallets as a withdrawal and a deposit), the opening as
 * holdings received at their value, and on FINAL_SPEND every holding spent for nothing, so that BittyTax's
 * allowable costs that day are the closing pools' cost.
 */
export function bittytaxHistory(h: History): string {
  const o = h.opening;
  const rows = [BITTYTAX_HEADER];
  const tao = o.chainTao.plus(o.exchangeTao);
  const taoCost = o.mode === 'market' ? o.marketTao : o.costTao.times(o.chainTao).div(tao).toDecimalPlaces(8);
  const alphaCost = o.mode === 'market' ? o.marketAlpha : o.costAlpha;
  rows.push(bittyRow('Gift-Received', o.at, [o.chainTao, 'TAO', taoCost], null, null, 'Chain'));
  if (o.exchangeTao.gt(0))
    rows.push(
      bittyRow('Gift-Received', o.at, [o.exchangeTao, 'TAO', o.costTao.minus(taoCost)], null, null, 'Kraken'),
    );
  rows.push(
    bittyRow(
      'Gift-Received',
      o.at,
      [o.chainAlpha, RECORD_NAME['alpha:12:100'], alphaCost],
      null,
      null,
      'Chain',
    ),
  );
  for (const e of h.events) {
    rows.push(...exchangeRows(e));
    if (e.kind === 'withdraw')
      rows.push(bittyRow('Deposit', e.arrives, [e.quantity, 'TAO', null], null, null, 'Chain'));
    if (e.kind === 'deposit')
      rows.push(bittyRow('Withdrawal', e.at, null, [e.quantity, 'TAO', null], null, 'Chain'));
    if (e.kind === 'exchange')
      rows.push(
        bittyRow(
          'Trade',
          e.at,
          [e.received, RECORD_NAME[e.to], e.gbp],
          [e.given, RECORD_NAME[e.from], e.gbp],
          null,
          'Chain',
        ),
      );
    if (e.kind === 'chain-income')
      rows.push(
        bittyRow('Staking-Reward', e.at, [e.quantity, RECORD_NAME[e.asset], e.gbp], null, null, 'Chain'),
      );
    if (e.kind === 'to-coldkey2') {
      rows.push(bittyRow('Withdrawal', e.at, null, [e.quantity, 'TAO', null], null, 'Chain'));
      rows.push(bittyRow('Deposit', e.at, [e.quantity, 'TAO', null], null, null, 'Coldkey2'));
    }
    if (e.kind === 'from-coldkey2') {
      rows.push(bittyRow('Withdrawal', e.at, null, [e.quantity, 'TAO', null], null, 'Coldkey2'));
      rows.push(bittyRow('Deposit', e.at, [e.quantity, 'TAO', null], null, null, 'Chain'));
    }
  }
  for (const [asset, quantity] of Object.entries(h.held)) {
    if (quantity.gt(0))
      rows.push(
        bittyRow(
          'Spend',
          FINAL_SPEND,
          null,
          [quantity, RECORD_NAME[asset as keyof typeof RECORD_NAME], quantity.times(0)],
          null,
          'Chain',
        ),
      );
  }
  return `${rows.join('\n')}\n`;
}
