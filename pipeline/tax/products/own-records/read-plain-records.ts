/**
 * The plain record format, for TAO and alpha bought, sold or moved off the chain when no tool's export
 * fits: `time_utc,type,asset,quantity,gbp_value,fee` in any order (`fee` may be left out).
 *
 * - `type`: buy, sell, deposit, withdrawal, fee; and income (staking on an exchange), which the buyer
 *   would otherwise have no plain way to give;
 * - `gbp_value`: the pounds paid or received (the fee not included); required for buy, sell, income and
 *   fee, optional for a deposit or withdrawal;
 * - `fee`: pounds paid with the row (an allowable cost), optional; on a `fee` row the value is
 *   `gbp_value` and this column stays empty.
 */
import type { Decimal } from 'decimal.js';
import type { OwnRecord } from './customer-inputs.js';
import { pooledAsset, unknownAsset } from './record-asset.js';
import type { RecordRow } from './record-row.js';

export const PLAIN_COLUMNS = ['time_utc', 'type', 'asset', 'quantity', 'gbp_value', 'fee'] as const;
export const PLAIN_REQUIRED = ['time_utc', 'type', 'asset', 'quantity', 'gbp_value'] as const;
export const PLAIN_NUMERIC = new Set(['quantity', 'gbp_value', 'fee']);

const KINDS = ['buy', 'sell', 'income', 'deposit', 'withdrawal', 'fee'] as const;
type Kind = (typeof KINDS)[number];

export function readPlainRow(row: RecordRow, source: string): OwnRecord[] {
  const at = row.time('time_utc');
  const typeText = row.text('type').toLowerCase();
  const kind = (KINDS as readonly string[]).includes(typeText) ? (typeText as Kind) : undefined;
  if (kind === undefined) {
    row.problem(
      'type',
      `"${row.text('type').slice(0, 20)}" is not a type read here: buy, sell, deposit, withdrawal, fee or income`,
    );
  }
  const asset = pooledAsset(row.text('asset'));
  if (asset === null) row.problem('asset', unknownAsset(row.text('asset')));
  const quantity = row.required('quantity', true, 'every row moves a quantity of its asset');
  const valued = kind !== 'deposit' && kind !== 'withdrawal';
  const gbp: Decimal | null | undefined = valued
    ? row.required(
        'gbp_value',
        false,
        `a ${kind ?? ''} needs its value in pounds (the pack looks up no prices for your records)`,
      )
    : row.amount('gbp_value', false);
  const feeGbp = row.amount('fee', false);
  if (kind === 'fee' && feeGbp) row.problem('fee', 'a fee row gives its value in gbp_value: leave fee empty');
  if (
    row.failed ||
    at === undefined ||
    kind === undefined ||
    asset === null ||
    !quantity ||
    gbp === undefined
  ) {
    return [];
  }
  return [
    {
      source,
      line: row.line,
      at,
      kind,
      asset,
      quantity,
      gbp,
      fee: feeGbp && !feeGbp.isZero() ? { asset: 'GBP', quantity: feeGbp, gbp: feeGbp } : null,
      wallet: null,
    },
  ];
}
