import { describe, expect, it } from 'vitest';
import { parseCgtDatetime } from '../../../../pipeline/tax/uk-rules/cgt/parse-cgt-datetime.js';

const iso = (text: string) => parseCgtDatetime(text)?.toISOString() ?? null;

describe('the datetime column of sbm tax cgt', () => {
  it('keeps an instant given with Z or an offset', () => {
    expect(iso('2025-04-05T22:30:00Z')).toBe('2025-04-05T22:30:00.000Z');
    expect(iso('2025-04-06T00:30:00+01:00')).toBe('2025-04-05T23:30:00.000Z');
    expect(iso('2025-04-06T00:30-0530')).toBe('2025-04-06T06:00:00.000Z');
    expect(iso('2024-06-23T09:00:00.123456Z')).toBe('2024-06-23T09:00:00.123Z');
  });

  it('reads a time without an offset as UK local time, and a date alone as 12:00 in London', () => {
    expect(iso('2024-06-23T14:00')).toBe('2024-06-23T13:00:00.000Z'); // BST
    expect(iso('2024-01-23 14:00:00')).toBe('2024-01-23T14:00:00.000Z'); // GMT
    expect(iso('2024-06-23')).toBe('2024-06-23T11:00:00.000Z');
    expect(iso('2024-12-23')).toBe('2024-12-23T12:00:00.000Z');
  });

  it('refuses what is not a real ISO 8601 date and time', () => {
    for (const text of [
      '',
      '23/06/2024',
      '2024-02-30',
      '2024-13-01',
      '2024-06-23T24:00',
      '2024-06-23T12:60',
      '2024-06-23T12',
      '2024-06-23T12:00:00+25:00',
      '1719140000',
      '2024-06-23T12:00:00 Z',
    ]) {
      expect(iso(text), text).toBeNull();
    }
  });
});
