/**
 * What the published snapshots must say, computed straight from the sandbox's ground truth with the
 * rules of spec section 1 (and the README's method section), independently of the pipeline's code.
 */
import type { Truth, TruthPanelPrice } from '../../pipeline/devnet/index.js';

const DAY_MS = 86_400_000;

/** Exact decimal text of a RAO amount, as a number the way a JSON reader sees it. */
export function alpha(rao: bigint): number {
  const negative = rao < 0n;
  const digits = (negative ? -rao : rao).toString().padStart(10, '0');
  return Number(`${negative ? '-' : ''}${digits.slice(0, -9)}.${digits.slice(-9)}`);
}

/** The same text the CSV carries: exact, no trailing zeros. */
export function alphaText(rao: bigint): string {
  const digits = rao.toString().padStart(10, '0');
  const fraction = digits.slice(-9).replace(/0+$/, '');
  return `${digits.slice(0, -9)}${fraction ? `.${fraction}` : ''}`;
}

export function isBurn(kind: string): boolean {
  return kind === 'burn' || kind === 'buyback';
}

export function asOfMs(truth: Truth): number {
  const last = truth.days[truth.days.length - 1]!;
  return Date.parse(truth.genesis) + last.last_block * truth.block_time_ms;
}

function price(row: TruthPanelPrice | undefined): { tao: bigint; alphaIn: bigint } | null {
  if (!row || row.subnet_tao_rao === null || row.subnet_alpha_in_rao === null) return null;
  const alphaIn = BigInt(row.subnet_alpha_in_rao);
  return alphaIn > 0n ? { tao: BigInt(row.subnet_tao_rao), alphaIn } : null;
}

export function panelPrice(truth: Truth, date: string, netuid: number) {
  return price(truth.panel_prices.find((p) => p.date === date && p.netuid === netuid));
}

export function burnsOf(truth: Truth, netuid: number) {
  return truth.burns.filter((b) => b.netuid === netuid && isBurn(b.kind));
}

export function windowAlpha(truth: Truth, netuid: number, fromMs: number, toMs: number): bigint {
  return burnsOf(truth, netuid)
    .filter((b) => Date.parse(b.time) > fromMs && Date.parse(b.time) <= toMs)
    .reduce((sum, b) => sum + BigInt(b.alpha_rao), 0n);
}

export function expectedRow(truth: Truth, netuid: number) {
  const asOf = asOfMs(truth);
  const today = new Date(asOf).toISOString().slice(0, 10);
  const latest = panelPrice(truth, today, netuid);
  const a = (days: number) => windowAlpha(truth, netuid, asOf - days * DAY_MS, asOf);
  const value = (rao: bigint) => (latest === null ? null : alpha((rao * latest.tao) / latest.alphaIn));
  const prev = windowAlpha(truth, netuid, asOf - 14 * DAY_MS, asOf - 7 * DAY_MS);
  const all = burnsOf(truth, netuid);
  const times = all.map((b) => Date.parse(b.time)).sort((x, y) => x - y);
  return {
    price_tao: latest === null ? null : alpha((1_000_000_000n * latest.tao) / latest.alphaIn),
    alpha_24h: alpha(a(1)),
    alpha_7d: alpha(a(7)),
    alpha_30d: alpha(a(30)),
    tao_24h: value(a(1)),
    tao_7d: value(a(7)),
    tao_30d: value(a(30)),
    change_7d_pct: prev === 0n ? null : percentChange(a(7), prev),
    last_burn: times.length ? new Date(times[times.length - 1]!).toISOString() : null,
    first_burn: times.length ? new Date(times[0]!).toISOString() : null,
    observed_burns: all.length,
    alpha_observed_total: alpha(all.reduce((sum, b) => sum + BigInt(b.alpha_rao), 0n)),
  };
}

/** 100 × (current − previous) / previous, rounded half away from zero to 2 decimals. */
function percentChange(current: bigint, previous: bigint): number {
  const scaled = (current - previous) * 10_000n;
  const quotient = scaled / previous;
  const rest = scaled % previous;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const away = scaled < 0n !== previous < 0n ? -1n : 1n;
  const rounded = 2n * abs(rest) >= abs(previous) ? quotient + away : quotient;
  return Number(rounded) / 100;
}

/** One history day: burns of the UTC day; TAO at that day's panel price of the same registration. */
export function expectedDay(truth: Truth, netuid: number, date: string) {
  const burns = burnsOf(truth, netuid).filter((b) => b.time.slice(0, 10) === date);
  const panel = truth.panel_prices.find((p) => p.date === date && p.netuid === netuid);
  const dayPrice = price(panel);
  const priced = burns.filter((b) => dayPrice !== null && b.registered_at === panel?.registered_at);
  const pricedAlpha = priced.reduce((sum, b) => sum + BigInt(b.alpha_rao), 0n);
  const alphaRao = burns.reduce((sum, b) => sum + BigInt(b.alpha_rao), 0n);
  let tao: number | null;
  if (burns.length === 0) tao = 0;
  else if (priced.length === 0) tao = null;
  else tao = alpha((pricedAlpha * dayPrice!.tao) / dayPrice!.alphaIn);
  return {
    date,
    alpha: alpha(alphaRao),
    alphaRao,
    burns: burns.length,
    tao,
    unpriced_burns: burns.length - priced.length,
  };
}

/** Registered subnets at the last panel block, by netuid. */
export function registeredAtPanel(truth: Truth): number[] {
  const last = truth.days[truth.days.length - 1]!;
  return truth.subnets
    .filter(
      (s) =>
        s.registered_at <= last.last_block &&
        (s.deregistered_at === null || s.deregistered_at > last.last_block),
    )
    .map((s) => s.netuid)
    .sort((x, y) => x - y);
}
