import { randomBytes } from 'node:crypto';

/** `ord_` + 128 random bits in hex: unguessable, so an id alone reveals nothing and finds nothing. */
export function newOrderId(random: (size: number) => Uint8Array = randomBytes): string {
  return `ord_${Buffer.from(random(16)).toString('hex')}`;
}

export const ORDER_ID_PATTERN = /^ord_[0-9a-f]{32}$/;
