/**
 * The engine's sign checks (`aboveZero`, `belowZero`) say what decimal.js's `gt(0)` and `lt(0)` say, for
 * every kind of value a transaction can carry or a bad input can hold: zero of either sign, the smallest
 * amounts, infinities and NaN.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { aboveZero, belowZero, CgtDecimal } from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';

const values = [
  '0',
  '-0',
  '1e-49',
  '-1e-49',
  '0.000000001',
  '-0.000000001',
  '12345678901234567890.123456789',
  '-3.5',
  'Infinity',
  '-Infinity',
  'NaN',
];

describe('the engine sign checks', () => {
  it.each(values)('say what gt(0) and lt(0) say of %s', (text) => {
    for (const value of [new CgtDecimal(text), new Decimal(text)]) {
      expect(aboveZero(value)).toBe(value.gt(0));
      expect(belowZero(value)).toBe(value.lt(0));
    }
  });

  it('hold zero neither above nor below, whatever its sign', () => {
    expect([aboveZero(new CgtDecimal('-0')), belowZero(new CgtDecimal('-0'))]).toEqual([false, false]);
    expect([aboveZero(new CgtDecimal('0')), belowZero(new CgtDecimal('0'))]).toEqual([false, false]);
  });
});
