import { createHmac, timingSafeEqual } from 'node:crypto';

/** 64 lower-case hex digits: the HMAC-SHA256 of the order id, hex (the order's `t`). */
const TOKEN_LENGTH = 64;
const TOKEN_FORM = /^[0-9a-f]{64}$/;

/**
 * The order token `t`: hex HMAC-SHA256 of the order id under `SBM_ORDER_SECRET`. Nothing is stored:
 * the token is recomputed from the id whenever it is needed, so the database alone never yields one.
 */
export interface OrderTokens {
  tokenFor(orderId: string): string;
  /**
   * Whether `presented` is the token of `orderId`. The HMAC is computed and compared in constant time
   * in every case, also when nothing or something of the wrong length was presented, so the answer's
   * timing says nothing about how close a guess came, nor whether a token was sent at all.
   */
  verify(orderId: string, presented: string | null): boolean;
}

export function orderTokens(secretHex: string): OrderTokens {
  const secret = Buffer.from(secretHex, 'hex');
  const tokenFor = (orderId: string) => createHmac('sha256', secret).update(orderId).digest('hex');
  return {
    tokenFor,
    verify(orderId, presented) {
      const expected = Buffer.from(tokenFor(orderId), 'latin1');
      // Same-length buffers for timingSafeEqual; a missing or malformed token compares as zeros. The
      // form check matters: written as latin1, a non-ASCII character would alias an ASCII byte.
      const given = Buffer.alloc(TOKEN_LENGTH);
      const usable = typeof presented === 'string' && TOKEN_FORM.test(presented);
      if (usable) given.write(presented, 'latin1');
      return timingSafeEqual(given, expected) && usable;
    },
  };
}

/** A secret as `SBM_ORDER_SECRET` takes it: exactly 64 hex digits (32 bytes). */
export function isOrderSecret(text: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(text);
}
