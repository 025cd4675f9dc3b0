/**
 * The fees paid out with a user liquidity position (`LiquidityRemoved`, and a `LiquidityModified` that takes
 * liquidity out) are the position's return: income when received, at their money's worth then (HMRC
 * CRYPTO61213, CRYPTO61214). The action's booking (`actions/liquidity-actions.ts`) acquires the TAO and the
 * alpha received, principal and fees together, at their value; this splits the fees off as acquisitions of
 * their own, of kind `income`, so that the income the pack reports and the tokens' cost in the pools are one
 * figure: the quantities and pounds of the action's acquisitions are only shared out, never added to, so the
 * pools and the daily reconciliation see what they saw before.
 *
 * A refund by the chain (`LiquidityRefunded`) pays its alpha fees inside the alpha it stakes with no event, and
 * no TAO fees: nothing separates them, so nothing is split there (the method says so).
 */
import { Decimal } from 'decimal.js';
import type { EconomicAction } from '../../chain-record/actions/economic-action.js';
import type { StakesAtBlock } from '../../chain-record/stake-at-blocks.js';
import { taoRaoAt } from '../income-ledger.js';
import { CgtDecimal } from './cgt-decimal.js';
import type { CgtTransaction } from './cgt-types.js';
import { LIQUIDITY_FEES_REF } from './liquidity-fees-ref.js';

/** One receipt of liquidity fees: income of its UK day, as income.csv and the PDF show it. */
export interface LiquidityFeeIncome {
  date: string;
  at: Date;
  block: number;
  eventIndex: number;
  coldkey: string;
  hotkey: string | null;
  netuid: number;
  /** The alpha's asset (`alpha:<netuid>:<registration>`), its registration block. */
  registeredAt: number;
  positionIds: string[];
  /** The fees received, exact: TAO and alpha (RAO). */
  taoRao: bigint;
  alphaRao: bigint;
  /** The alpha's value in TAO at the block's pool price; what was received in TAO is `taoRao` + it. */
  alphaValueTaoRao: bigint;
  /** Their value in pounds at receipt: the TAO's and the alpha's (the amounts the pools hold as their cost). */
  taoGbp: Decimal;
  alphaGbp: Decimal;
  gbp: Decimal;
}

const RAO = new CgtDecimal(1_000_000_000);
const units = (rao: bigint) => new CgtDecimal(rao.toString()).div(RAO);
const raoOf = (quantity: Decimal) => BigInt(quantity.mul(RAO).toFixed(0, Decimal.ROUND_DOWN));

/**
 * Splits the fees of a liquidity action that paid them out off its acquisitions (`own`, changed in place):
 * returns the fees' acquisitions (kind `income`) and the receipt, or nothing for any other action.
 * `gbpOf` values TAO RAO at the rate of the action's UK day; `after` is the chain at the action's block.
 */
export function splitLiquidityFees(
  action: EconomicAction,
  own: CgtTransaction[],
  { date, ref, after }: { date: string; ref: string; after: StakesAtBlock },
  gbpOf: (date: string, taoRao: bigint) => Decimal,
): { transactions: CgtTransaction[]; income?: LiquidityFeeIncome } {
  const figures = action.liquidity;
  if (!figures || figures.direction !== 'out' || figures.refund) return { transactions: [] };
  if (figures.feeTaoRao <= 0n && figures.feeAlphaRao <= 0n) return { transactions: [] };
  const feeRef = `${LIQUIDITY_FEES_REF} ${ref}`;
  const transactions: CgtTransaction[] = [];
  // Takes `rao` (at most what the acquisition holds) and its value off the acquisition, as a fee receipt.
  const take = (tx: CgtTransaction | undefined, rao: bigint, value: (rao: bigint) => Decimal) => {
    if (!tx || rao <= 0n) return { rao: 0n, gbp: new CgtDecimal(0) };
    const held = raoOf(tx.quantity);
    const fee = rao < held ? rao : held;
    const gbp = Decimal.min(value(fee), tx.gbp);
    tx.quantity = tx.quantity.minus(units(fee));
    tx.gbp = tx.gbp.minus(gbp);
    transactions.push({
      at: tx.at,
      asset: tx.asset,
      action: 'acquire',
      quantity: units(fee),
      gbp,
      ref: feeRef,
      kind: 'income',
    });
    return { rao: fee, gbp };
  };
  const acquired = (test: (asset: string) => boolean) =>
    own.find((tx) => tx.action === 'acquire' && test(tx.asset) && tx.kind === undefined);
  const alphaPrefix = `alpha:${figures.netuid}:`;
  const tao = take(
    acquired((asset) => asset === 'TAO'),
    figures.feeTaoRao,
    (rao) => gbpOf(date, rao),
  );
  let alphaValueTaoRao = 0n;
  const alphaTx = acquired((asset) => asset.startsWith(alphaPrefix));
  const alpha = take(alphaTx, figures.feeAlphaRao, (rao) => {
    alphaValueTaoRao = taoRaoAt(after, figures.netuid, rao) ?? 0n;
    return gbpOf(date, alphaValueTaoRao);
  });
  // What is left of an acquisition that was all fees is no acquisition.
  for (let i = own.length - 1; i >= 0; i--) if (own[i]!.quantity.isZero()) own.splice(i, 1);
  if (transactions.length === 0) return { transactions };
  const event =
    action.events.find(
      (e) => (e.kind === 'LiquidityRemoved' || e.kind === 'LiquidityModified') && e.role === 'origin',
    ) ?? action.events[0]!;
  return {
    transactions,
    income: {
      date,
      at: new Date(action.time),
      block: action.block,
      eventIndex: event.event_index,
      coldkey: event.coldkey,
      hotkey: event.hotkey,
      netuid: figures.netuid,
      registeredAt: alphaTx ? Number(alphaTx.asset.slice(alphaPrefix.length)) : 0,
      positionIds: figures.positions.map((p) => p.position_id),
      taoRao: tao.rao,
      alphaRao: alpha.rao,
      alphaValueTaoRao: alpha.rao > 0n ? alphaValueTaoRao : 0n,
      taoGbp: tao.gbp,
      alphaGbp: alpha.gbp,
      gbp: tao.gbp.add(alpha.gbp),
    },
  };
}
