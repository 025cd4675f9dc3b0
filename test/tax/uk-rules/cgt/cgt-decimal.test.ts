/**
 * The engine's sign checks (`aboveZero`, `belowZero`) say what decimal.js's `gt(0)` and `lt(0)` say, for
 * every kind of value a transaction can carry or a bad input can hold: zero of either sign, the smallest
 * amounts, infinities and NaN.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  aboveZero,
  belowZero,
  CgtDecimal,
  fixedDecimal,
  plainDecimal,
} from '../../../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';

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

/**
 * The CSVs' decimal text (`plainDecimal`, `fixedDecimal`) is made from decimal.js's digits directly: it must be
 * exactly what decimal.js's `toFixed` writes (the packs' bytes rest on it), for the values the ledger holds
 * and for the edges of its digit words: exponents far either side, words with leading and trailing zeros.
 */
describe('the decimal text of the CSVs', () => {
  // A fixed sequence of pseudo-random digits (the same on every run), so a failure names its value again.
  let seed = 20261130;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const generated: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const digits = String(next()) + String(next()).padStart(10, '0') + String(next());
    const length = 1 + (next() % digits.length);
    const point = next() % (length + 1);
    const body = digits.slice(0, length);
    const sign = next() % 3 === 0 ? '-' : '';
    const text = point === length ? body : `${body.slice(0, point) || '0'}.${body.slice(point)}`;
    const shift = (next() % 61) - 30;
    generated.push(`${sign}${text}e${shift}`);
  }
  const edges = [
    ...values,
    '10000000',
    '0.0000001',
    '100000000000000',
    '1.00000010000001',
    '-0.00000000',
    '5e-9',
    '0.000000005',
    '123.456000000',
    '7000000.0000007',
    '1e30',
    '-1e-30',
  ];

  it('is what toFixed writes, plain and to 8 places, for every value', () => {
    let checked = 0;
    for (const text of [...edges, ...generated]) {
      for (const value of [new CgtDecimal(text), new Decimal(text)]) {
        const plain = value.toFixed();
        expect(plainDecimal(value), text).toBe(/^-0(\.0*)?$/.test(plain) ? '0' : plain);
        for (const places of [0, 2, 8, 12])
          expect(fixedDecimal(value, places), `${text} to ${places}`).toBe(
            value.toFixed(places, Decimal.ROUND_HALF_EVEN),
          );
        checked++;
      }
    }
    expect(checked).toBe((edges.length + generated.length) * 2);
  });

  it('rounds half to even where a value has more places than asked', () => {
    expect(fixedDecimal(new CgtDecimal('0.125'), 2)).toBe('0.12');
    expect(fixedDecimal(new CgtDecimal('0.135'), 2)).toBe('0.14');
    expect(fixedDecimal(new CgtDecimal('-2.5'), 0)).toBe('-2');
    expect(fixedDecimal(new CgtDecimal('1.5'), 8)).toBe('1.50000000');
  });
});
