import type { ValidationError } from '../../pipeline/contract/errors.js';
import { ValidationFailure } from './http-errors.js';

/**
 * Parameter parsing with FastAPI's (pydantic v2) error vocabulary, because callers of this API already
 * parse that shape: `{"loc": ["path", "netuid"], "msg": "...", "type": "int_parsing", "input": "x"}`.
 * Problems are collected so that one 422 lists every bad parameter.
 */
export type Location = 'path' | 'query';

export class ParamReader {
  readonly issues: (ValidationError & { input?: unknown })[] = [];

  integer(where: Location, name: string, raw: unknown): number | undefined {
    if (raw === undefined) return undefined;
    const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof text !== 'string' || !/^[+-]?\d{1,15}$/.test(text.trim())) {
      this.issues.push({
        type: 'int_parsing',
        loc: [where, name],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: text,
      });
      return undefined;
    }
    return Number(text.trim());
  }

  required(where: Location, name: string, raw: unknown): number | undefined {
    if (raw === undefined || raw === '') {
      this.issues.push({ type: 'missing', loc: [where, name], msg: 'Field required', input: null });
      return undefined;
    }
    return this.integer(where, name, raw);
  }

  /** An integer restricted to `allowed`, with a default when absent. */
  oneOf<T extends number>(
    where: Location,
    name: string,
    raw: unknown,
    allowed: readonly T[],
    fallback: T,
  ): T {
    const value = this.integer(where, name, raw);
    if (value === undefined) return fallback;
    if ((allowed as readonly number[]).includes(value)) return value as T;
    const expected = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
    this.issues.push({
      type: 'literal_error',
      loc: [where, name],
      msg: `Input should be ${expected}`,
      input: value,
    });
    return fallback;
  }

  nonNegative(where: Location, name: string, raw: unknown): number | undefined {
    const value = this.integer(where, name, raw);
    if (value === undefined || value >= 0) return value;
    this.issues.push({
      type: 'greater_than_equal',
      loc: [where, name],
      msg: 'Input should be greater than or equal to 0',
      input: value,
    });
    return undefined;
  }

  /** Throws the collected problems as one 422. */
  done(): void {
    if (this.issues.length > 0) throw new ValidationFailure(this.issues);
  }
}
