/**
 * Decimals sent to another thread: through structured cloning, as `postMessage` does (the typed arrays
 * handed over, not copied), each one must come back printing and computing as it did, with its own
 * precision; one that cannot is refused, never altered.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { CgtDecimal } from '../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import {
  columnBuffers,
  DecimalCannotCross,
  DecimalColumnWriter,
  decimalAt,
  withDecimalsCloneable,
  withDecimalsRestored,
} from '../../pipeline/threads/decimals-across-threads.js';

const CONSTRUCTORS = [Decimal, CgtDecimal];
const TEXTS = [
  '0',
  '-0',
  '1',
  '-3.5',
  '0.000000001',
  '195.353687978',
  '1083.81639535',
  '12345678901234567890.123456789',
  '1e-49',
  '-7.25e+40',
  '3.1415926535897932384626433832795028841971693993751',
];
const values = TEXTS.flatMap((text) => [new Decimal(text), new CgtDecimal(text)]);

/** What a value says: its text, sign, its constructor, and what its precision makes of a division. */
const said = (value: Decimal) => [
  value.toFixed(),
  value.isNegative(),
  value.constructor === CgtDecimal ? 'CgtDecimal' : value.constructor === Decimal ? 'Decimal' : 'other',
  value.div(3).toString(),
];

describe('decimals as columns', () => {
  it('come back from another thread printing and computing as they did, with their own precision', () => {
    const writer = new DecimalColumnWriter(values.length + 1, CONSTRUCTORS);
    for (const value of values) writer.add(value);
    writer.add(undefined);
    const column = writer.column();
    const across = structuredClone(column, { transfer: columnBuffers(column) });
    expect(column.digits.byteLength).toBe(0);
    for (const [i, value] of values.entries()) {
      expect(said(decimalAt(across, i, CONSTRUCTORS)!)).toEqual(said(value));
    }
    expect(decimalAt(across, values.length, CONSTRUCTORS)).toBeUndefined();
    // The two precisions differ, so the constructor was kept, not just the digits.
    const one = TEXTS.indexOf('1') * 2;
    expect(
      decimalAt(across, one + 1, CONSTRUCTORS)!
        .div(3)
        .toString(),
    ).not.toBe(decimalAt(across, one, CONSTRUCTORS)!.div(3).toString());
  });

  it('refuse what cannot be made again: an unknown precision, NaN, the infinities', () => {
    const Other = Decimal.clone({ precision: 7 });
    for (const value of [
      new Other('1.5'),
      new Decimal(NaN),
      new CgtDecimal(Infinity),
      new Decimal(-Infinity),
    ]) {
      const writer = new DecimalColumnWriter(1, CONSTRUCTORS);
      expect(() => writer.add(value)).toThrow(DecimalCannotCross);
    }
  });

  it('refuse a column with values missing', () => {
    const writer = new DecimalColumnWriter(2, CONSTRUCTORS);
    writer.add(new Decimal(1));
    expect(() => writer.column()).toThrow(/1 of 2/);
  });
});

describe('objects holding decimals', () => {
  it('come back with every decimal as it was, and what was one object still one object', () => {
    const fee = { asset: 'TAO', quantity: new CgtDecimal('0.002'), gbp: new Decimal('0.61') };
    const record = {
      line: 4,
      at: new Date('2025-05-10T11:30:00Z'),
      quantity: new Decimal('10'),
      gbp: null,
      fee,
    };
    const graph = { records: [record, { ...record, line: 5, fee: null }], transfers: [{ record, fee }] };
    const back = withDecimalsRestored<typeof graph>(
      structuredClone(withDecimalsCloneable(graph, CONSTRUCTORS)),
      CONSTRUCTORS,
    );
    expect(back.transfers[0]!.record).toBe(back.records[0]);
    expect(back.transfers[0]!.fee).toBe(back.records[0]!.fee);
    expect(said(back.records[0]!.fee!.quantity)).toEqual(said(fee.quantity));
    expect(said(back.records[0]!.fee!.gbp)).toEqual(said(fee.gbp));
    expect(said(back.records[1]!.quantity)).toEqual(said(record.quantity));
    expect(back.records[0]!.at.toISOString()).toBe('2025-05-10T11:30:00.000Z');
    expect(back.records[1]!.fee).toBeNull();
  });

  it('refuse a decimal of an unknown precision', () => {
    const Other = Decimal.clone({ precision: 7 });
    expect(() => withDecimalsCloneable({ quantity: new Other(1) }, CONSTRUCTORS)).toThrow(DecimalCannotCross);
  });
});
