import { describe, expect, it } from 'vitest';
import { HttpError, ValidationFailure } from '../../gateway/http/http-errors.js';

describe('answer errors', () => {
  it('carry their answer but no stack frames: a refusal under a flood should not pay for a trace', () => {
    const refused = new HttpError(429, 'slow down', { 'Retry-After': '30' });
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ status: 429, detail: 'slow down', headers: { 'Retry-After': '30' } });
    expect(refused.name).toBe('HttpError');
    expect(refused.stack).not.toMatch(/\n\s+at /);
    const invalid = new ValidationFailure([
      { type: 'missing', loc: ['query', 'days'], msg: 'Field required' },
    ]);
    expect(invalid.message).toBe('Field required');
    expect(invalid.stack).not.toMatch(/\n\s+at /);
    // Other errors keep their traces: the limit is restored after each answer error.
    expect(new Error('a fault').stack).toMatch(/\n\s+at /);
  });
});
