import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePercent } from '../../pipeline/amounts/change-percent.js';
import { ExactDecimal, encodeValidJson, stringifyExact, toPlain } from '../../pipeline/amounts/exact-json.js';
import { poolReserves, priceToDecimal, valueInTaoRao } from '../../pipeline/amounts/pool-price.js';
import { fixedToText, raoToDecimal } from '../../pipeline/amounts/rao.js';

describe('amount rendering', () => {
  it('renders RAO as exact alpha decimals, above 2^53 too', () => {
    expect(raoToDecimal(1_500_000_000n).text).toBe('1.5');
    expect(raoToDecimal(0n).text).toBe('0');
    expect(raoToDecimal(1n).text).toBe('0.000000001');
    const huge = 2n ** 64n - 1n; // u64::MAX RAO
    expect(raoToDecimal(huge).text).toBe('18446744073.709551615');
  });

  it('values alpha at a pool price with the integer division last (truncated to the RAO)', () => {
    const price = { taoRao: 2n, alphaInRao: 3n };
    expect(valueInTaoRao(10n, price)).toBe(6n); // 20 / 3 = 6.66… → 6
    expect(valueInTaoRao(10n, null)).toBeNull();
    expect(valueInTaoRao(10n, { taoRao: 5n, alphaInRao: 0n })).toBeNull();
    expect(priceToDecimal({ taoRao: 1n, alphaInRao: 3n })?.text).toBe('0.333333333');
  });

  it('has a pool price only when both reserves are known and the pool holds alpha', () => {
    expect(poolReserves(2n, 3n)).toEqual({ taoRao: 2n, alphaInRao: 3n });
    expect(poolReserves(null, 3n)).toBeNull();
    expect(poolReserves(2n, null)).toBeNull();
    expect(poolReserves(2n, 0n)).toBeNull();
  });

  it('computes change_7d_pct rounded to 2 decimals, null when the previous week is 0', () => {
    expect(changePercent(150n, 100n)?.text).toBe('50');
    expect(changePercent(1n, 3n)?.text).toBe('-66.67');
    expect(changePercent(2n, 3n)?.text).toBe('-33.33');
    expect(changePercent(5n, 0n)).toBeNull();
    expect(fixedToText(-5n, 2)).toBe('-0.05');
  });

  it('writes ExactDecimal into JSON bytes verbatim and validates them as numbers', () => {
    const value = { a: new ExactDecimal('18446744073.709551615'), b: [new ExactDecimal('-1.5')], c: 'text' };
    expect(stringifyExact(value)).toBe('{"a":18446744073.709551615,"b":[-1.5],"c":"text"}');
    expect(toPlain(value)).toEqual({ a: Number('18446744073.709551615'), b: [-1.5], c: 'text' });
    expect(() => new ExactDecimal('1e5')).toThrow();
  });

  it('encodes a document only when its plain form satisfies the schema, and says why not', () => {
    const schema = z.object({ a: z.number().min(0) });
    const good = encodeValidJson(schema, { a: new ExactDecimal('18446744073.709551615') });
    expect(good.ok && new TextDecoder().decode(good.bytes)).toBe('{"a":18446744073.709551615}');
    const bad = encodeValidJson(schema, { a: new ExactDecimal('-1') });
    expect(bad).toMatchObject({ ok: false, problem: expect.stringContaining('→ at a') });
  });
});
