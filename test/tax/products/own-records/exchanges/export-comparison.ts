/**
 * What an exchange export says, as a list both readings can be put in: the pack's records
 * (`readCustomerFiles`) and BittyTax's converter's (`runBittyTaxConv`). A trade is its token, quantity,
 * pounds and fee; a deposit or withdrawal its token, quantity and fee; income its token and quantity (the
 * converter leaves its value for BittyTax to look up). Quantities as plain decimals.
 */

import type { OwnRecord } from '../../../../../pipeline/tax/products/own-records/customer-inputs.js';
import {
  type CustomerInputs,
  CustomerInputsRejected,
} from '../../../../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../../../../pipeline/tax/products/own-records/read-customer-files.js';
import { CgtDecimal } from '../../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import type { ConvRecord } from '../../../../support/bittytax-conv.js';

export interface Movement {
  at: string;
  kind: 'buy' | 'sell' | 'deposit' | 'withdrawal' | 'income';
  asset: string;
  quantity: string;
  /**
   * Pounds paid or received; '' for deposits, withdrawals and income. For a trade against another currency
   * or token (`against`), how much of it: its pounds come from the day's rate, not from the file.
   */
  gbp: string;
  fee: string;
  /** The currency or token a trade was against, when not pounds. */
  against?: string;
}

const plain = (text: string | undefined) => (text ? new CgtDecimal(text).toFixed() : '');

export function fromRecords(records: readonly OwnRecord[]): Movement[] {
  return records
    .map((r) => ({
      at: r.at.toISOString().slice(0, 19),
      kind: r.kind as Movement['kind'],
      asset: r.asset,
      quantity: r.quantity.toFixed(),
      gbp:
        r.kind === 'buy' || r.kind === 'sell'
          ? ((r.counter ? r.counter.quantity : r.gbp)?.toFixed() ?? '')
          : '',
      fee: r.fee && !r.fee.quantity.isZero() ? `${r.fee.quantity.toFixed()} ${r.fee.asset}` : '',
      ...(r.counter ? { against: r.counter.asset } : {}),
    }))
    .sort(order);
}

/**
 * `fiat`: currencies that are money (their deposits and withdrawals move no token); `against`: the other
 * currencies and tokens TAO is traded against (a trade against one of them names it, as `fromRecords` does).
 */
export function fromConverter(
  records: readonly ConvRecord[],
  fiat = ['GBP'],
  against: readonly string[] = [],
): Movement[] {
  const out: Movement[] = [];
  for (const r of records) {
    const at = r.timestamp
      .replace(' UTC', '')
      .replace(/\.\d+$/, '')
      .slice(0, 19);
    const fee =
      r.feeQuantity && !new CgtDecimal(r.feeQuantity).isZero() ? `${plain(r.feeQuantity)} ${r.feeAsset}` : '';
    if (r.type === 'Trade') {
      const money = (asset: string) => fiat.includes(asset) || against.includes(asset);
      const buying = !money(r.buyAsset);
      const other = buying ? r.sellAsset : r.buyAsset;
      out.push({
        at,
        kind: buying ? 'buy' : 'sell',
        asset: buying ? r.buyAsset : r.sellAsset,
        quantity: plain(buying ? r.buyQuantity : r.sellQuantity),
        gbp: plain(buying ? r.sellQuantity : r.buyQuantity),
        fee,
        ...(other !== 'GBP' ? { against: other } : {}),
      });
    } else if (r.type === 'Deposit' || r.type === 'Withdrawal') {
      const asset = r.type === 'Deposit' ? r.buyAsset : r.sellAsset;
      if (fiat.includes(asset) || against.includes(asset)) continue;
      out.push({
        at,
        kind: r.type === 'Deposit' ? 'deposit' : 'withdrawal',
        asset,
        quantity: plain(r.type === 'Deposit' ? r.buyQuantity : r.sellQuantity),
        gbp: '',
        fee,
      });
    } else if (['Staking', 'Staking-Reward', 'Interest', 'Income'].includes(r.type)) {
      out.push({ at, kind: 'income', asset: r.buyAsset, quantity: plain(r.buyQuantity), gbp: '', fee });
    } else {
      out.push({
        at,
        kind: r.type as Movement['kind'],
        asset: r.buyAsset || r.sellAsset,
        quantity: '',
        gbp: '',
        fee,
      });
    }
  }
  return out.sort(order);
}

function order(a: Movement, b: Movement): number {
  return a.at.localeCompare(b.at) || a.kind.localeCompare(b.kind) || a.quantity.localeCompare(b.quantity);
}

/** The buyer's records file read as the order page and `--records` read it. */
export function readRecordsFile(text: string, name: string): CustomerInputs {
  return readCustomerFiles([{ name, bytes: new TextEncoder().encode(text), role: 'records' }]);
}

/** The problems a records file is refused with, each as `line L, column: reason`; throws when it is read. */
export function refusalsOf(text: string, name: string): string[] {
  try {
    readRecordsFile(text, name);
  } catch (error) {
    if (error instanceof CustomerInputsRejected)
      return error.problems.map((p) => `line ${p.line}, ${p.column}: ${p.reason}`);
    throw error;
  }
  throw new Error('the file was accepted');
}
