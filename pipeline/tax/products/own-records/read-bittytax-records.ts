/**
 * BittyTax's transaction records, as its README documents them and as the pack writes `bittytax.csv`
 * (`pipeline/tax/products/pack/exports/bittytax-csv.ts`, which must read back). The type says what a row is:
 *
 * - Deposit, Withdrawal: own tokens moving between wallets (a value, when given, is kept); of pounds or
 *   another currency (BittyTax's own example file has them): money, skipped and listed;
 * - Stake, Unstake: tokens put into or taken out of staking on an exchange: the same tokens with the same
 *   owner, nothing booked (a fee paid in a token is a disposal of it, as BittyTax books it);
 * - Mining, Staking, Staking-Reward, Interest, Dividend, Income, Referral, Cashback, Fee-Rebate: income at
 *   its Buy Value in GBP;
 * - Gift-Received, Airdrop: acquired at the Buy Value, not income (BittyTax treats an airdrop as not
 *   income; the pack's own export writes Gift-Received for holdings taken at market value);
 * - Spend, Gift-Sent: a disposal at the Sell Value;
 * - Lost: a negligible value claim (TCGA 1992 s24(2), CRYPTO22400): a disposal at the claimed value (the
 *   Sell Value, £0 when empty) and a reacquisition at once at that value, outside the same-day and 30-day
 *   rules, as BittyTax books it;
 * - Trade: a sell of the Sell side and a buy of the Buy side when they are tokens (TAO, alpha, USDT, BTC); its value is the
 *   pounds side when one side is GBP, else each side's own Value in GBP (the other's when one is empty);
 * - refused: Gift-Spouse and Charity-Sent (no gain and no loss, which a record cannot say), Fork (its cost
 *   is apportioned from the original token), and the loan and margin types.
 *
 * BittyTax looks up a missing value itself; the pack does not, so a value it needs and is not given is a
 * problem that names the column.
 */
import type { Decimal } from 'decimal.js';
import { CgtDecimal } from '../../uk-rules/cgt/cgt-decimal.js';
import { BITTYTAX_COLUMNS } from '../tax-tool-columns.js';
import type { OwnRecord } from './customer-inputs.js';
import { isFiat, moneyOnly, moneySkipped, type Side, side, unknownAsset } from './record-asset.js';
import { readFee } from './record-fee.js';
import type { RecordRow } from './record-row.js';

export { BITTYTAX_COLUMNS };
export const BITTYTAX_REQUIRED = [
  'type',
  'buy quantity',
  'buy asset',
  'sell quantity',
  'sell asset',
  'timestamp',
] as const;
export const BITTYTAX_NUMERIC = new Set([
  'buy quantity',
  'buy value in gbp',
  'sell quantity',
  'sell value in gbp',
  'fee quantity',
  'fee value in gbp',
]);

type Kind = OwnRecord['kind'];
/** What each type read becomes: the kind of its Buy or Sell side. */
const TYPES: Record<string, { buy?: Kind; sell?: Kind; valued: boolean }> = {
  deposit: { buy: 'deposit', valued: false },
  withdrawal: { sell: 'withdrawal', valued: false },
  mining: { buy: 'income', valued: true },
  staking: { buy: 'income', valued: true },
  'staking-reward': { buy: 'income', valued: true },
  interest: { buy: 'income', valued: true },
  dividend: { buy: 'income', valued: true },
  income: { buy: 'income', valued: true },
  referral: { buy: 'income', valued: true },
  cashback: { buy: 'income', valued: true },
  'fee-rebate': { buy: 'income', valued: true },
  'gift-received': { buy: 'buy', valued: true },
  airdrop: { buy: 'buy', valued: true },
  spend: { sell: 'sell', valued: true },
  'gift-sent': { sell: 'sell', valued: true },
  lost: { sell: 'sell', valued: false },
  stake: { sell: 'fee', valued: false },
  unstake: { buy: 'fee', valued: false },
  trade: { buy: 'buy', sell: 'sell', valued: true },
};

const REFUSED: Record<string, string> = {
  'gift-spouse':
    'a gift to a spouse is at no gain and no loss, which a record cannot say: leave the row out and tell your accountant',
  'charity-sent':
    'a gift to a charity is at no gain and no loss, which a record cannot say: leave the row out and tell your accountant',
  fork: "a forked token takes part of the original token's cost, which the pack does not apportion",
};

interface Leg {
  amount: Decimal;
  side: Side;
  /** The side's Value in GBP, null when empty. */
  value: Decimal | null;
}

export function readBittytaxRow(row: RecordRow, source: string): OwnRecord[] {
  const typeText = row.text('type');
  const type = typeText.toLowerCase();
  const at = row.time('timestamp');
  const treatment = TYPES[type];
  if (treatment === undefined) {
    row.problem(
      'type',
      REFUSED[type]
        ? `${typeText} is not read: ${REFUSED[type]}`
        : `"${typeText.slice(0, 30)}" is not a type read here: Deposit, Withdrawal, Trade, Staking, Income, Interest, Mining, Airdrop, Gift-Received, Spend, Gift-Sent, Lost, Stake or Unstake`,
    );
    return [];
  }
  const buy = leg(row, 'buy', treatment.buy !== undefined);
  const sell = leg(row, 'sell', treatment.sell !== undefined);
  if (at === undefined || buy === undefined || sell === undefined || row.failed) return [];
  if (type === 'deposit' || type === 'withdrawal') {
    const moved = buy ?? sell;
    if (moved && 'fiat' in moved.side) {
      row.note(moneySkipped(moved.side.fiat, type));
      return [];
    }
  }
  if (type === 'stake' || type === 'unstake') {
    // Nothing booked but a fee paid in a token: that token disposed of at the fee's value.
    const fee = readFee(row, { quantity: 'fee quantity', asset: 'fee asset', gbp: 'fee value in gbp' }, []);
    if (!fee || fee.asset === 'GBP' || isFiat(fee.asset)) return [];
    const wallet = row.text('wallet');
    return [
      {
        source,
        line: row.line,
        at,
        kind: 'fee',
        asset: fee.asset,
        quantity: fee.quantity,
        gbp: fee.gbp,
        fee: null,
        wallet: wallet === '' ? null : wallet,
      },
    ];
  }

  let value: Decimal | null = null;
  if (buy && sell && ('fiat' in buy.side || 'fiat' in sell.side)) {
    if ('fiat' in buy.side && 'fiat' in sell.side) {
      row.problem('buy asset', moneyOnly(buy.side.fiat));
      return [];
    }
    const money = 'fiat' in buy.side ? buy : sell;
    if ((money.side as { fiat: string }).fiat === 'GBP') value = money.amount;
  }
  const legs: Array<{ kind: Kind; leg: Leg; column: string }> = [];
  if (buy && treatment.buy) legs.push({ kind: treatment.buy, leg: buy, column: 'buy value in gbp' });
  if (sell && treatment.sell) legs.push({ kind: treatment.sell, leg: sell, column: 'sell value in gbp' });
  const drafts: Array<Omit<OwnRecord, 'fee' | 'source' | 'line' | 'at' | 'wallet'>> = [];
  for (const { kind, leg, column } of legs) {
    if ('fiat' in leg.side) {
      if (!buy || !sell)
        row.problem(
          `${kind === 'sell' || kind === 'withdrawal' ? 'sell' : 'buy'} asset`,
          moneyOnly(leg.side.fiat),
        );
      continue;
    }
    const asset = (leg.side as { pooled: string }).pooled;
    const other = leg === buy ? sell : buy;
    let gbp: Decimal | null = value ?? leg.value ?? other?.value ?? null;
    if (type === 'lost') gbp = leg.value ?? new CgtDecimal(0);
    if (gbp === null && treatment.valued) {
      row.problem(
        column,
        `is empty: a ${typeText} needs its value in pounds (BittyTax would look a price up; the pack looks up none for your records)`,
      );
      continue;
    }
    drafts.push({
      kind,
      asset,
      quantity: leg.amount,
      gbp,
      ...(type === 'lost' ? { claim: true as const } : {}),
    });
  }
  if (row.failed) return [];
  const fee = readFee(row, { quantity: 'fee quantity', asset: 'fee asset', gbp: 'fee value in gbp' }, drafts);
  if (fee === undefined) return [];
  const wallet = row.text('wallet');
  // The fee is kept once, with the first record; combining allows it (a trade of two tokens: half each).
  return drafts.map((draft, i) => ({
    source,
    line: row.line,
    at,
    ...draft,
    fee: i === 0 ? fee : null,
    wallet: wallet === '' ? null : wallet,
  }));
}

/** A side: null when the type has none and it is empty, undefined when refused (reported). */
function leg(row: RecordRow, prefix: 'buy' | 'sell', expected: boolean): Leg | null | undefined {
  const quantityColumn = `${prefix} quantity`;
  const assetColumn = `${prefix} asset`;
  const quantity = row.amount(quantityColumn, true);
  const assetText = row.text(assetColumn);
  const value = row.amount(`${prefix} value in gbp`, false);
  if (quantity === undefined || value === undefined) return undefined;
  if (!expected) {
    if (quantity !== null || assetText !== '') {
      row.problem(
        quantityColumn,
        `is given but a ${row.text('type')} has no ${prefix === 'buy' ? 'Buy' : 'Sell'} side: leave it empty`,
      );
      return undefined;
    }
    return null;
  }
  if (quantity === null) {
    row.problem(quantityColumn, `is empty: a ${row.text('type')} needs its quantity`);
    return undefined;
  }
  if (assetText === '') {
    row.problem(assetColumn, `is empty: a ${row.text('type')} needs its asset`);
    return undefined;
  }
  const s = side(assetText);
  if ('unknown' in s) {
    row.problem(assetColumn, unknownAsset(s.unknown));
    return undefined;
  }
  return { amount: quantity, side: s, value };
}
