/**
 * JSON numbers rendered exactly from integer arithmetic. A JS number carries about 16 significant
 * digits, but alpha totals above 2^53 RAO need more to keep every RAO, so amounts travel as
 * `ExactDecimal` (decimal text) and are written into the JSON bytes verbatim. Validation sees the
 * same values as plain numbers (`toPlain`). Every published document (snapshots, emissions) is encoded here.
 */
import { z } from 'zod';

export class ExactDecimal {
  constructor(readonly text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal: ${text}`);
  }
  toJSON(): string {
    return `${MARK}${this.text}`;
  }
}

const MARK = '\u0001exact:';
const MARKED = /"\\u0001exact:(-?\d+(?:\.\d+)?)"/g;

/** JSON text with every ExactDecimal written as a bare number. */
export function stringifyExact(value: unknown): string {
  return JSON.stringify(value).replace(MARKED, '$1');
}

/** The same value with ExactDecimal replaced by numbers, for schema validation. */
export function toPlain(value: unknown): unknown {
  if (value instanceof ExactDecimal) return Number(value.text);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toPlain(inner)]));
  }
  return value;
}

const encoder = new TextEncoder();

/**
 * The exact JSON bytes of `value` when its plain form satisfies `schema`; otherwise what the schema says
 * is wrong, for the caller to raise as its own typed error. What is validated is what is written.
 */
export function encodeValidJson(
  schema: z.ZodType,
  value: unknown,
): { ok: true; bytes: Uint8Array } | { ok: false; problem: string } {
  const parsed = schema.safeParse(toPlain(value));
  if (!parsed.success) return { ok: false, problem: z.prettifyError(parsed.error) };
  return { ok: true, bytes: encoder.encode(stringifyExact(value)) };
}
