/**
 * The reconciliation reads each transaction's quantity in RAO from its decimal text: exactly the RAO a
 * quantity of whole RAO holds (positive, negative, below one TAO, large), and a refusal for a fraction of a RAO.
 */
import { describe, expect, it } from 'vitest';
import { quantityRao } from '../../../pipeline/tax/products/reconcile-holdings.js';
import { CgtDecimal } from '../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';

const of = (rao: bigint) => ({ quantity: new CgtDecimal(rao.toString()).div(1_000_000_000) });

describe('a quantity in RAO', () => {
  it('is the RAO of every whole-RAO quantity', () => {
    const samples = [0n, 1n, 9n, 10n, 999_999_999n, 1_000_000_000n, 1_500_000_000n, 21_000_000_000_000_000n];
    // And a spread of others, each digit count from 1 to 19.
    for (let digits = 1; digits <= 19; digits++)
      samples.push(BigInt('7'.repeat(digits)), BigInt(`1${'0'.repeat(digits)}`));
    for (const rao of samples) {
      expect(quantityRao(of(rao)), rao.toString()).toBe(rao);
      expect(quantityRao(of(-rao)), (-rao).toString()).toBe(-rao);
    }
  });

  it('refuses a fraction of a RAO', () => {
    expect(() => quantityRao({ quantity: new CgtDecimal('0.0000000001') })).toThrow(/not a whole RAO amount/);
    expect(() => quantityRao({ quantity: new CgtDecimal('-1.0000000005') })).toThrow(
      /not a whole RAO amount/,
    );
  });
});
