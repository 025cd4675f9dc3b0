/**
 * The opening's point of a wide holder: a staker in a hundred subnets opens with a hundred holdings, and the
 * point names TAO and the largest few, then counts and totals the rest (cgt-input.csv has each), so that it
 * reads in a few lines; the pools still open with every holding.
 */
import { describe, expect, it } from 'vitest';
import { cgtTransactions } from '../../../../pipeline/tax/uk-rules/cgt/cgt-transactions.js';
import { JANUARY_PRICES } from './january-prices.js';
import { dayOf, stakesOf, TAO } from './ledger-cases.js';

const ALICE = '5Alice';
const opening = dayOf(0);

/** The opening of a coldkey holding `alpha[i]` whole alpha on subnet i + 1 (1 TAO an alpha), no free TAO. */
function openingOf(alpha: bigint[]) {
  const stake = Object.fromEntries(alpha.map((a, i) => [`${ALICE}/5H/${i + 1}`, a * TAO]));
  const mapping = cgtTransactions({
    coldkeys: new Set([ALICE]),
    opening,
    actions: [],
    income: [],
    days: [],
    positions: alpha.map((_, i) => ({ coldkey: ALICE, hotkey: '5H', netuid: i + 1 })),
    stakes: stakesOf({ [opening.block]: { stake } }),
    prices: JANUARY_PRICES,
  });
  return {
    flag: mapping.flags.find((f) => f.kind === 'opening')!,
    acquired: mapping.transactions.filter((tx) => tx.kind === 'opening'),
  };
}

describe("a wide holder's opening point", () => {
  // 100 holdings: subnet i + 1 holds i + 1 alpha, so subnet 100's is the largest.
  const { flag, acquired } = openingOf(Array.from({ length: 100 }, (_, i) => BigInt(i + 1)));

  it('names the largest holdings and counts and totals the rest', () => {
    expect(flag.text).toContain('alpha:100:1 100 at £200.00; alpha:99:1 99 at £198.00');
    expect(flag.text).toContain('alpha:96:1 96 at £192.00;');
    expect(flag.text).not.toContain('alpha:95:1');
    // The 95 others: 1 + 2 + ... + 95 alpha at £2 each.
    expect(flag.text).toContain(
      "95 other holdings at £9120.00 in total, each given in cgt-input.csv's opening rows",
    );
    expect(flag.text.length).toBeLessThan(600);
  });

  it('still opens the pools with every holding', () => {
    expect(acquired).toHaveLength(100);
  });

  it('names one holding more rather than "1 other"', () => {
    const six = openingOf([1n, 2n, 3n, 4n, 5n, 6n]).flag.text;
    expect(six).toContain('alpha:1:1 1 at £2.00');
    expect(six).not.toContain('other holdings');
  });
});
