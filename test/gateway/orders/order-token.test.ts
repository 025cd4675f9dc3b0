import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newOrderId, ORDER_ID_PATTERN } from '../../../gateway/orders/order-id.js';
import { isOrderSecret, orderTokens } from '../../../gateway/orders/order-token.js';

const SECRET = '0f'.repeat(32);

describe('order tokens', () => {
  const tokens = orderTokens(SECRET);
  const id = 'ord_00112233445566778899aabbccddeeff';

  it('is the hex HMAC-SHA256 of the order id under the secret', () => {
    const expected = createHmac('sha256', Buffer.from(SECRET, 'hex')).update(id).digest('hex');
    expect(tokens.tokenFor(id)).toBe(expected);
    expect(tokens.tokenFor(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(orderTokens('f0'.repeat(32)).tokenFor(id)).not.toBe(expected);
  });

  it('opens its own order only, and nothing for a missing, malformed or aliased token', () => {
    const token = tokens.tokenFor(id);
    expect(tokens.verify(id, token)).toBe(true);
    expect(tokens.verify('ord_ffffffffffffffffffffffffffffffff', token)).toBe(false);
    for (const wrong of [
      null,
      '',
      token.slice(0, 63),
      `${token}0`,
      token.toUpperCase(),
      `${token.slice(0, 63)}${token[63] === '0' ? '1' : '0'}`,
      // Written as latin1, U+0161 would become 0x61 ("a"): the form check refuses it first.
      token.replaceAll('a', '\u0161'),
    ]) {
      expect(tokens.verify(id, wrong), String(wrong)).toBe(false);
    }
  });

  it('takes secrets of exactly 64 hex digits', () => {
    expect(isOrderSecret(SECRET)).toBe(true);
    expect(isOrderSecret(SECRET.slice(1))).toBe(false);
    expect(isOrderSecret(`${SECRET.slice(1)}g`)).toBe(false);
  });

  it('makes order ids of 128 random bits', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newOrderId()));
    expect(ids.size).toBe(1000);
    for (const made of ids) expect(made).toMatch(ORDER_ID_PATTERN);
  });
});
