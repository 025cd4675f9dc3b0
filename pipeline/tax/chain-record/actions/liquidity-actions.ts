/**
 * User liquidity positions on the swap pallet and crowdloan contributions, as economic actions (the leg bookers
 * and treatments `economic-action.ts` lists in its tables). Each is a right that is no token: the pack books it
 * as its own asset (`claim` legs), named `liquidity:<netuid>:<position id>` and `crowdloan:<id>`.
 *
 * Liquidity (HMRC Cryptoassets Manual, CRYPTO61620 on beneficial ownership; CRYPTO61213 and CRYPTO61214 on the
 * return). Adding liquidity hands the TAO and alpha to the subnet's pool, which trades them with every swap: the
 * pool deals with them as it will, the strong indicator CRYPTO61620 gives of beneficial ownership passing. So:
 *   - `LiquidityAdded` (and a `LiquidityModified` that adds): a disposal of the TAO and of the alpha at their
 *     market value (the alpha at the pool's price of the block), and the position acquired for that value;
 *   - `LiquidityRemoved` (and a `LiquidityModified` that takes out): the position (or that part of its liquidity)
 *     disposed of for the TAO and alpha principal paid back at market value; the TAO and alpha received acquired
 *     at their value, the fees among them income when received (CRYPTO61213: the return, not the principal, is
 *     income; its money's worth at receipt): split off as acquisitions of kind income (cgt/liquidity-fee-income.ts),
 *     in income.csv and liquidity.csv;
 *   - `LiquidityRefunded` (a `disable_lp` or a dissolution closing the position with no swap event naming it, its
 *     TAO principal credited by `Balances.Deposit`): the positions the record shows open on that subnet disposed
 *     of for the TAO credited and the alpha the chain shows added at that block (principal and alpha fees
 *     together: nothing on the chain separates them), both acquired at market value; with no open position in
 *     the record, the TAO and alpha are acquired at market value and the action is a point to check.
 * The consultation outcome of 26 November 2025 (no gain, no loss on entering and leaving such arrangements) is a
 * proposal, not law for 2025/26: liquidity.csv keeps each position's amounts in and out so that reading can be
 * computed too.
 *
 * Crowdloans (CRYPTO22100: exchanging a token for another asset, a right among them, is a disposal). A
 * contribution gives TAO for a contribution recorded by the crowdloan, which becomes a share of the subnet lease
 * when the crowdloan is finalized: a disposal of the TAO at its value, the contribution (`crowdloan:<id>`)
 * acquired for it. A withdrawal or a refund gives the contribution back for the TAO returned. The lease's
 * dividends are income when received (`SubnetLeaseDividendsDistributed`, economic-action.ts).
 */
import type { LedgerEvent } from '../ledger-event.js';
import type { ActionFlag, ActionLeg, AlphaHolding } from './action-legs.js';

/** What a booker needs of the group being built (economic-action.ts's ActionGroup). */
interface Group {
  events: LedgerEvent[];
  coldkeys: ReadonlySet<string>;
  legs: ActionLeg[];
  touches: AlphaHolding[];
  flags: ActionFlag[];
}

/** A liquidity action's own figures: what went into or came out of the position (RAO), for liquidity.csv. */
export interface LiquidityFigures {
  netuid: number;
  positions: Array<{ position_id: string; liquidity: bigint }>;
  direction: 'in' | 'out';
  taoRao: bigint;
  /** Alpha stated by the event (null: a refund, measured on the chain). */
  alphaRao: bigint | null;
  feeTaoRao: bigint;
  feeAlphaRao: bigint;
  /** A refund by the chain with no swap event naming the position. */
  refund: boolean;
}

const LIQUIDITY_KINDS = new Set([
  'LiquidityAdded',
  'LiquidityRemoved',
  'LiquidityModified',
  'LiquidityRefunded',
]);
const big = (value: string | null | undefined) => BigInt(value ?? '0');
const positionName = (netuid: number, id: string) => `liquidity:${netuid}:${id}`;
const ref = (e: LedgerEvent) => `${e.kind} ${e.block}/${e.event_index}`;

/**
 * Each `LiquidityRefunded` (in chain order) given the coldkey's positions on its subnet that the events before it
 * leave open: added, less removed, changed by modifications. Returns the events with those refunds annotated.
 */
export function annotateLiquidityRefunds(events: LedgerEvent[]): LedgerEvent[] {
  if (!events.some((e) => e.kind === 'LiquidityRefunded')) return events;
  const open = new Map<string, Map<string, bigint>>();
  const of = (e: LedgerEvent) => {
    const key = `${e.coldkey}|${e.netuid}`;
    const found = open.get(key) ?? new Map<string, bigint>();
    open.set(key, found);
    return found;
  };
  return events.map((e) => {
    if (e.role !== 'origin') return e;
    const id = e.position_id ?? '';
    switch (e.kind) {
      case 'LiquidityAdded':
      case 'LiquidityModified': {
        const positions = of(e);
        const left = (positions.get(id) ?? 0n) + big(e.liquidity);
        if (left > 0n) positions.set(id, left);
        else positions.delete(id);
        return e;
      }
      case 'LiquidityRemoved':
        of(e).delete(id);
        return e;
      case 'LiquidityRefunded': {
        const positions = of(e);
        const refunded = [...positions].map(([position_id, liquidity]) => ({
          position_id,
          liquidity: liquidity.toString(),
        }));
        positions.clear();
        return { ...e, refunded_positions: refunded };
      }
      default:
        return e;
    }
  });
}

export function isLiquidityGroup(events: readonly LedgerEvent[]): boolean {
  return events.some((e) => LIQUIDITY_KINDS.has(e.kind));
}

/** The order's own liquidity events of the group. */
function ownLiquidity(g: Group): LedgerEvent[] {
  return g.events.filter(
    (e) => LIQUIDITY_KINDS.has(e.kind) && g.coldkeys.has(e.coldkey) && e.role === 'origin',
  );
}

/** Whether a liquidity event puts into the position (an add, a modification that adds). */
const putsIn = (e: LedgerEvent) =>
  e.kind === 'LiquidityAdded' || (e.kind === 'LiquidityModified' && big(e.liquidity) > 0n);

export function bookLiquidity(g: Group): void {
  for (const e of ownLiquidity(g)) {
    const netuid = e.netuid!;
    const holding: AlphaHolding = { coldkey: e.coldkey, hotkey: e.hotkey, netuid };
    const tao = big(e.tao_rao);
    const alpha = big(e.alpha_rao);
    const taoLeg = (side: 'dispose' | 'acquire', rao: bigint) => {
      if (rao > 0n) g.legs.push({ side, asset: 'TAO', rao, valueTaoRao: rao });
    };
    const alphaLeg = (side: 'dispose' | 'acquire', h: AlphaHolding, stated: bigint | null) => {
      g.legs.push({ side, asset: 'alpha', holding: h, statedRao: stated, valueTaoRao: 0n, atMarket: true });
      g.touches.push(h);
    };
    if (e.kind === 'LiquidityRefunded') {
      const refundHolding: AlphaHolding = { coldkey: e.coldkey, hotkey: null, netuid };
      taoLeg('acquire', tao);
      alphaLeg('acquire', refundHolding, null);
      const positions = e.refunded_positions ?? [];
      const total = positions.reduce((sum, p) => sum + big(p.liquidity), 0n);
      // The positions' value, shared by liquidity: the TAO credited and the alpha measured at the block.
      let taoLeft = tao;
      positions.forEach((p, i) => {
        const last = i === positions.length - 1;
        const share = last ? taoLeft : (tao * big(p.liquidity)) / total;
        taoLeft -= share;
        g.legs.push({
          side: 'dispose',
          asset: 'claim',
          name: positionName(netuid, p.position_id),
          rao: big(p.liquidity),
          valueTaoRao: share,
          // The alpha's value goes with the last position (a single position is the usual case).
          ...(last ? { alphaAtMarket: { netuid, rao: null } } : {}),
        });
      });
      continue;
    }
    const claim = {
      asset: 'claim' as const,
      name: positionName(netuid, e.position_id ?? ''),
      rao: e.kind === 'LiquidityModified' ? absBig(big(e.liquidity)) : big(e.liquidity),
      valueTaoRao: tao,
      alphaAtMarket: { netuid, rao: alpha },
    };
    if (putsIn(e)) {
      taoLeg('dispose', tao);
      alphaLeg('dispose', holding, alpha);
      g.legs.push({ side: 'acquire', ...claim });
    } else {
      const feeTao = big(e.fee_tao_rao);
      const feeAlpha = big(e.fee_alpha_rao);
      g.legs.push({ side: 'dispose', ...claim });
      taoLeg('acquire', tao + feeTao);
      alphaLeg('acquire', holding, alpha + feeAlpha);
    }
  }
}

function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}

export function liquidityFigures(
  events: readonly LedgerEvent[],
  coldkeys: ReadonlySet<string>,
): LiquidityFigures | undefined {
  const e = events.find((x) => LIQUIDITY_KINDS.has(x.kind) && coldkeys.has(x.coldkey) && x.role === 'origin');
  if (!e) return undefined;
  const refund = e.kind === 'LiquidityRefunded';
  return {
    netuid: e.netuid ?? -1,
    positions: refund
      ? (e.refunded_positions ?? []).map((p) => ({ position_id: p.position_id, liquidity: big(p.liquidity) }))
      : [{ position_id: e.position_id ?? '', liquidity: absBig(big(e.liquidity)) }],
    direction: putsIn(e) ? 'in' : 'out',
    taoRao: big(e.tao_rao),
    alphaRao: refund ? null : big(e.alpha_rao),
    feeTaoRao: big(e.fee_tao_rao),
    feeAlphaRao: big(e.fee_alpha_rao),
    refund,
  };
}

export function liquidityTreatment(events: readonly LedgerEvent[], legs: readonly ActionLeg[]): string {
  const e = events.find((x) => LIQUIDITY_KINDS.has(x.kind))!;
  const where = `subnet ${e.netuid}`;
  if (e.kind === 'LiquidityRefunded') {
    const closed = legs.filter((l) => l.asset === 'claim').map((l) => (l.asset === 'claim' ? l.name : ''));
    return closed.length > 0
      ? `user liquidity refunded by the chain (disable_lp or a dissolution; UserLiquidityToggled, the TAO by Balances.Deposit, the alpha staked with no event) on ${where}: ${closed.join(', ')} disposed of for the TAO credited and the alpha the chain shows added (principal and alpha fees together), both acquired at market value (CRYPTO61620)`
      : `user liquidity refunded by the chain on ${where} with no position of this record open there: the TAO credited and the alpha added taken as acquired at market value; listed for checking`;
  }
  return putsIn(e)
    ? `liquidity added to ${where} (position ${e.position_id}): the pool deals with the tokens, so beneficial ownership passes (CRYPTO61620): a disposal of the TAO and alpha at market value, the position acquired for it`
    : `liquidity taken out of ${where} (position ${e.position_id}): the position disposed of for the principal paid back at market value; the TAO and alpha received acquired at their value, the fees among them income when received (CRYPTO61213): their own acquisitions, in income.csv and liquidity.csv`;
}

export function liquidityFlag(
  events: readonly LedgerEvent[],
  legs: readonly ActionLeg[],
): ActionFlag | undefined {
  const e = events.find((x) => x.kind === 'LiquidityRefunded');
  if (!e) return undefined;
  const tao = `${big(e.tao_rao)} RAO of TAO`;
  return legs.some((l) => l.asset === 'claim')
    ? {
        kind: 'unexplained',
        text: `${ref(e)}: a liquidity position on subnet ${e.netuid} was closed by the chain with no swap event naming it (${tao} credited; its alpha, fees included, staked with no event and measured on the chain; its TAO fees not paid out). Booked as the position's disposal; check against the position as the chain held it before (Swap.Positions).`,
      }
    : {
        kind: 'unexplained',
        text: `${ref(e)}: TAO (${tao}) and alpha credited on subnet ${e.netuid} by the chain's closing of user liquidity, with no position of this record open there (opened before the record, or by another coldkey); taken as acquired at market value. Check.`,
      };
}

/** A group of the order's crowdloan contribution, withdrawal or refund. */
export function isCrowdloanGroup(events: readonly LedgerEvent[], coldkeys: ReadonlySet<string>): boolean {
  return crowdloanMoves(events, coldkeys).length > 0;
}

/** The order's crowdloan moves: a contribution, a withdrawal, or a refund's transfer from a funds account. */
function crowdloanMoves(
  events: readonly LedgerEvent[],
  coldkeys: ReadonlySet<string>,
): Array<{ id: number; side: 'in' | 'out'; rao: bigint; event: LedgerEvent }> {
  const moves: Array<{ id: number; side: 'in' | 'out'; rao: bigint; event: LedgerEvent }> = [];
  const stated = new Set<number>();
  for (const e of events) {
    if (!coldkeys.has(e.coldkey)) continue;
    if (e.kind === 'CrowdloanContributed' || e.kind === 'CrowdloanWithdrew') {
      stated.add(e.crowdloan_id ?? -1);
      moves.push({
        id: e.crowdloan_id ?? -1,
        side: e.kind === 'CrowdloanContributed' ? 'in' : 'out',
        rao: big(e.tao_rao),
        event: e,
      });
    }
  }
  for (const e of events) {
    // A refund (`refund`, after a failed crowdloan): only the transfer from the funds account names the coldkey.
    if (e.kind !== 'Transfer' || e.role !== 'destination' || !coldkeys.has(e.coldkey)) continue;
    const id = e.from_crowdloan ?? null;
    if (id === null || stated.has(id)) continue;
    moves.push({ id, side: 'out', rao: big(e.tao_rao), event: e });
  }
  return moves;
}

export function bookCrowdloans(g: Group): void {
  for (const move of crowdloanMoves(g.events, g.coldkeys)) {
    const claim = {
      asset: 'claim' as const,
      name: `crowdloan:${move.id}`,
      rao: move.rao,
      valueTaoRao: move.rao,
    };
    if (move.side === 'in') {
      g.legs.push({ side: 'dispose', asset: 'TAO', rao: move.rao, valueTaoRao: move.rao });
      g.legs.push({ side: 'acquire', ...claim });
    } else {
      g.legs.push({ side: 'dispose', ...claim });
      g.legs.push({ side: 'acquire', asset: 'TAO', rao: move.rao, valueTaoRao: move.rao });
    }
  }
}

export function crowdloanTreatment(events: readonly LedgerEvent[]): string {
  const contributed = events.find((e) => e.kind === 'CrowdloanContributed');
  if (contributed) {
    return `contribution to crowdloan ${contributed.crowdloan_id} (a share of its subnet lease once finalized): TAO exchanged for a right, a disposal of the TAO at its value and the contribution acquired for it (CRYPTO22100)`;
  }
  return 'crowdloan contribution withdrawn or refunded: the contribution disposed of for the TAO returned, that TAO acquired';
}
