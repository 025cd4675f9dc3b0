/**
 * Random exchange-staker histories for the differential test: what happened (exchange buys and sells with
 * fees in GBP or TAO, withdrawals to the chain and deposits back, stakes, unstakes and moves between
 * subnets, income on the chain and on the exchange, a second coldkey, an opening at market value, from
 * entered figures or from last year's pools.csv), and each way a person could give it to the pack: the
 * chain side as a pack's `cgt-input.csv`, the exchange side in each record format, and the whole history
 * as BittyTax transaction records for BittyTax itself. The writers only say what happened, each in its
 * format's own terms; nothing here computes a gain.
 *
 * Every event is at a UTC time between 08:00 and 16:00, so its UK day (Europe/London) is its UTC date.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';

/** Well-known development keys: valid SS58 addresses that belong to nobody real. */
export const EXCHANGE_DEPOSIT = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const SECOND_COLDKEY = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
/** The exchange's hot wallet that withdrawals come from: not named, so only the records explain it. */
export const EXCHANGE_HOT = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

export type Asset = 'TAO' | 'alpha:12:100' | 'alpha:7:50';
const ALPHAS: Asset[] = ['alpha:12:100', 'alpha:7:50'];
/** The names BittyTax and the record formats use (`SN7-ALPHA-R50`: netuid 7 registered at block 50). */
export const RECORD_NAME: Record<Asset, string> = {
  TAO: 'TAO',
  'alpha:12:100': 'SN12-ALPHA-R100',
  'alpha:7:50': 'SN7-ALPHA-R50',
};

export interface Fee {
  asset: 'GBP' | 'TAO';
  quantity: Decimal;
  gbp: Decimal;
}

export type Event =
  | { kind: 'buy' | 'sell'; at: Date; quantity: Decimal; gbp: Decimal; fee: Fee | null }
  | { kind: 'exchange-income'; at: Date; quantity: Decimal; gbp: Decimal }
  | { kind: 'withdraw'; at: Date; arrives: Date; quantity: Decimal; fee: Fee; gbp: Decimal }
  | { kind: 'deposit'; at: Date; arrives: Date; quantity: Decimal; gbp: Decimal }
  | { kind: 'exchange'; at: Date; from: Asset; to: Asset; given: Decimal; received: Decimal; gbp: Decimal }
  | { kind: 'chain-income'; at: Date; asset: Asset; quantity: Decimal; gbp: Decimal }
  | { kind: 'to-coldkey2' | 'from-coldkey2'; at: Date; quantity: Decimal; gbp: Decimal }
  /** A trade of TAO for alpha on the records' side with a fee in alpha (only with `tokenFeeTrades`). */
  | {
      kind: 'swap';
      at: Date;
      tao: Decimal;
      alpha: Decimal;
      gbp: Decimal;
      fee: { quantity: Decimal; gbp: Decimal };
    };

export interface Opening {
  mode: 'market' | 'entered' | 'pools';
  day: string;
  at: Date;
  chainTao: Decimal;
  chainAlpha: Decimal;
  /** Held on the exchange at the opening (only with an opening the buyer gives). */
  exchangeTao: Decimal;
  /** Market value of the chain's holdings (the pack's opening). */
  marketTao: Decimal;
  marketAlpha: Decimal;
  /** The cost the buyer gives, for entered figures or pools.csv. */
  costTao: Decimal;
  costAlpha: Decimal;
}

export interface History {
  seed: number;
  opening: Opening;
  events: Event[];
  /** Held at the end, per asset. */
  held: Record<Asset, Decimal>;
  /** TAO in pounds on each UTC date the history priced (every event's UK day is its UTC date). */
  taoPrices: ReadonlyMap<string, Decimal>;
}

export interface HistoryOptions {
  /**
   * Add record trades of TAO for alpha with a fee in alpha. Off by default: the Koinly and BittyTax readers
   * put such a fee wholly on one side, where HMRC (CRYPTO22150) and BittyTax apportion it to both.
   */
  tokenFeeTrades?: boolean;
}

/** A small seeded generator (mulberry32): the same seed, the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const D = (value: string | number | Decimal) => new CgtDecimal(value);
const DAY_MS = 86_400_000;

export function makeHistory(seed: number, options: HistoryOptions = {}): History {
  const rnd = random(seed);
  const between = (lo: number, hi: number, places: number) => D((lo + (hi - lo) * rnd()).toFixed(places));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const taoPrice = new Map<string, Decimal>();
  const alphaPrice = new Map<string, Decimal>();
  const price = (asset: Asset, at: Date) => {
    const key = `${asset} ${at.toISOString().slice(0, 10)}`;
    const prices = asset === 'TAO' ? taoPrice : alphaPrice;
    if (!prices.has(key)) prices.set(key, asset === 'TAO' ? between(180, 480, 2) : between(0.4, 3, 4));
    return prices.get(key)!;
  };
  const at = (day: number, hour: number) => new Date(Date.UTC(2024, 9, 1) + day * DAY_MS + hour * 3_600_000);

  let day = Math.floor(rnd() * 40);
  const openAt = at(day, 15);
  const mode = pick(['market', 'entered', 'pools'] as const);
  const chainTao = between(1, 8, 4);
  const chainAlpha = between(20, 200, 4);
  const exchangeTao = mode === 'market' ? D(0) : between(0, 4, 4);
  const opening: Opening = {
    mode,
    day: openAt.toISOString().slice(0, 10),
    at: openAt,
    chainTao,
    chainAlpha,
    exchangeTao,
    marketTao: chainTao.times(price('TAO', openAt)),
    marketAlpha: chainAlpha.times(price('alpha:12:100', openAt)),
    costTao: chainTao
      .plus(exchangeTao)
      .times(between(100, 400, 2))
      .toDecimalPlaces(2),
    costAlpha: chainAlpha.times(between(0.2, 2, 2)).toDecimalPlaces(2),
  };
  const held = { chain: D(chainTao), exchange: D(exchangeTao), coldkey2: D(0) };
  const alpha: Record<string, Decimal> = { 'alpha:12:100': D(chainAlpha), 'alpha:7:50': D(0) };
  const events: Event[] = [];
  const fee = (quantity: Decimal, p: Decimal, room: Decimal): Fee | null => {
    const r = rnd();
    if (r < 0.2) return null;
    if (r < 0.6) {
      const gbp = between(0.5, 6, 2);
      return { asset: 'GBP', quantity: gbp, gbp };
    }
    const q = CgtDecimal.max(D('0.0001'), quantity.times('0.002').toDecimalPlaces(4));
    return q.lte(room) ? { asset: 'TAO', quantity: q, gbp: q.times(p) } : null;
  };

  const LAST_DAY = 500; // 2026-02-13: every event before the final spends of the BittyTax run
  while (true) {
    day += 3 + Math.floor(rnd() * 10);
    if (day > LAST_DAY) break;
    const choice = rnd();
    if (choice < 0.25) {
      // A buy on the exchange, perhaps withdrawn to the coldkey and a reward the same day.
      const t = at(day, 10);
      const p = price('TAO', t);
      const quantity = between(0.5, 5, 4);
      const f = fee(quantity, p, quantity.minus('0.001'));
      events.push({ kind: 'buy', at: t, quantity, gbp: quantity.times(p), fee: f });
      held.exchange = held.exchange.plus(quantity).minus(f?.asset === 'TAO' ? f.quantity : 0);
      if (rnd() < 0.3) {
        const q = between(0.001, 0.05, 4);
        events.push({ kind: 'exchange-income', at: at(day, 15), quantity: q, gbp: q.times(p) });
        held.exchange = held.exchange.plus(q);
      }
      if (rnd() < 0.6) {
        const feeQ = D('0.0005');
        const room = held.exchange.minus(feeQ);
        const q = room.times(between(0.5, 1, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
        if (q.gt('0.01')) {
          const w = at(day, 12);
          events.push({
            kind: 'withdraw',
            at: w,
            arrives: new Date(w.getTime() + 20 * 60_000),
            quantity: q,
            fee: { asset: 'TAO', quantity: feeQ, gbp: feeQ.times(p) },
            gbp: q.times(p),
          });
          held.exchange = held.exchange.minus(q).minus(feeQ);
          held.chain = held.chain.plus(q);
        }
      }
    } else if (choice < 0.4 && (held.chain.gt('0.2') || held.exchange.gt('0.2'))) {
      // TAO sent back to the exchange, then perhaps sold there.
      const t = at(day, 9);
      const p = price('TAO', t);
      if (held.chain.gt('0.2') && rnd() < 0.7) {
        const q = held.chain.times(between(0.3, 1, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
        events.push({
          kind: 'deposit',
          at: t,
          arrives: new Date(t.getTime() + 30 * 60_000),
          quantity: q,
          gbp: q.times(p),
        });
        held.chain = held.chain.minus(q);
        held.exchange = held.exchange.plus(q);
      }
      if (held.exchange.gt('0.1') && rnd() < 0.8) {
        const s = at(day, 11);
        const q = held.exchange.times(between(0.3, 0.95, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
        const f = fee(q, p, held.exchange.minus(q));
        events.push({ kind: 'sell', at: s, quantity: q, gbp: q.times(p), fee: f });
        held.exchange = held.exchange.minus(q).minus(f?.asset === 'TAO' ? f.quantity : 0);
      }
    } else if (choice < 0.6 && held.chain.gt('0.2')) {
      // Stake TAO into a subnet.
      const t = at(day, 13);
      const to = pick(ALPHAS);
      const given = held.chain.times(between(0.2, 0.9, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
      const gbp = given.times(price('TAO', t));
      const received = gbp.div(price(to, t)).toDecimalPlaces(4);
      events.push({ kind: 'exchange', at: t, from: 'TAO', to, given, received, gbp });
      held.chain = held.chain.minus(given);
      alpha[to] = alpha[to]!.plus(received);
    } else if (choice < 0.75 && ALPHAS.some((a) => alpha[a]!.gt(1))) {
      // Unstake, or move to the other subnet.
      const t = at(day, 14);
      const from = pick(ALPHAS.filter((a) => alpha[a]!.gt(1)));
      const to: Asset = rnd() < 0.6 ? 'TAO' : ALPHAS.find((a) => a !== from)!;
      const given = alpha[from]!.times(between(0.3, 1, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
      const gbp = given.times(price(from, t));
      const received = gbp.div(price(to, t)).toDecimalPlaces(4);
      events.push({ kind: 'exchange', at: t, from, to, given, received, gbp });
      alpha[from] = alpha[from]!.minus(given);
      if (to === 'TAO') held.chain = held.chain.plus(received);
      else alpha[to] = alpha[to]!.plus(received);
    } else if (choice < 0.88) {
      const t = at(day, 8);
      const asset = pick(ALPHAS);
      const quantity = between(0.05, 3, 4);
      events.push({ kind: 'chain-income', at: t, asset, quantity, gbp: quantity.times(price(asset, t)) });
      alpha[asset] = alpha[asset]!.plus(quantity);
    } else if (held.coldkey2.gt(0)) {
      const t = at(day, 16);
      events.push({
        kind: 'from-coldkey2',
        at: t,
        quantity: held.coldkey2,
        gbp: held.coldkey2.times(price('TAO', t)),
      });
      held.chain = held.chain.plus(held.coldkey2);
      held.coldkey2 = D(0);
    } else if (held.chain.gt('0.5')) {
      const t = at(day, 16);
      const q = held.chain.times(between(0.2, 0.7, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
      events.push({ kind: 'to-coldkey2', at: t, quantity: q, gbp: q.times(price('TAO', t)) });
      held.chain = held.chain.minus(q);
      held.coldkey2 = held.coldkey2.plus(q);
    } else if (options.tokenFeeTrades && held.exchange.gt(1)) {
      const t = at(day, 10);
      const tao = held.exchange.times(between(0.2, 0.6, 3)).toDecimalPlaces(4, CgtDecimal.ROUND_DOWN);
      const gbp = tao.times(price('TAO', t));
      const a = gbp.div(price('alpha:12:100', t)).toDecimalPlaces(4);
      const feeQ = a.times('0.01').toDecimalPlaces(4);
      events.push({
        kind: 'swap',
        at: t,
        tao,
        alpha: a,
        gbp,
        fee: { quantity: feeQ, gbp: feeQ.times(price('alpha:12:100', t)) },
      });
      held.exchange = held.exchange.minus(tao);
      alpha['alpha:12:100'] = alpha['alpha:12:100']!.plus(a).minus(feeQ);
    }
  }
  if (held.coldkey2.gt(0)) {
    const t = at(LAST_DAY + 3, 16);
    events.push({
      kind: 'from-coldkey2',
      at: t,
      quantity: held.coldkey2,
      gbp: held.coldkey2.times(price('TAO', t)),
    });
    held.chain = held.chain.plus(held.coldkey2);
  }
  return {
    seed,
    opening,
    events,
    held: {
      TAO: held.chain.plus(held.exchange),
      'alpha:12:100': alpha['alpha:12:100']!,
      'alpha:7:50': alpha['alpha:7:50']!,
    },
    taoPrices: new Map([...taoPrice].map(([key, p]) => [key.slice('TAO '.length), p])),
  };
}
