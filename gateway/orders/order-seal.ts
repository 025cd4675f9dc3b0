import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { OrderRequestError } from './create-order.js';

/**
 * What an order needs to be made again from its Checkout Session alone (after a restore from a backup
 * older than the order): the SKU, the tax year, the coldkeys, the price charged and when it was made.
 * The order id travels in clear (`metadata.order_id`): it is the key the sealed value is bound to.
 */
export interface SealedOrder {
  sku: string;
  taxYear: string;
  coldkeys: string[];
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

/** Stripe's metadata limits: at most 50 keys, a key at most 40 characters, a value at most 500. */
export const STRIPE_METADATA_MAX_KEYS = 50;
export const STRIPE_METADATA_MAX_VALUE = 500;
/** The clear keys the checkout sets beside the sealed parts (`order_id`, `sku`). */
const CLEAR_KEYS = 2;
/** The sealed value is split over `order_seal_0`, `order_seal_1`, … as needed. */
const PART_KEY = 'order_seal_';
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** An order whose sealed metadata would not fit Stripe's limits: refused at checkout (400). */
export class SealedOrderTooLargeError extends OrderRequestError {
  override name = 'SealedOrderTooLargeError';
}

/** A sealed value that does not open under our key (altered, from another secret, or cut short). */
export class SealRefusedError extends Error {
  override name = 'SealRefusedError';
}

/**
 * The order's details sealed into Checkout Session metadata with AES-256-GCM under a key derived by
 * HKDF-SHA256 from `SBM_ORDER_SECRET` (its own `info`, so it never equals the token key). The order id
 * is the additional authenticated data: a sealed value moved to another order's session does not open.
 * Stripe stores the metadata without being able to read the coldkeys; only this service opens it.
 */
export interface OrderSeal {
  /** The metadata entries (`order_seal_0…`) for the order; throws SealedOrderTooLargeError when too large. */
  seal(orderId: string, order: SealedOrder): Record<string, string>;
  /** The order read back from a session's metadata; null when it has no sealed part; throws SealRefusedError. */
  open(orderId: string, metadata: Readonly<Record<string, string>>): SealedOrder | null;
}

export function orderSeal(secretHex: string): OrderSeal {
  const key = Buffer.from(
    hkdfSync('sha256', Buffer.from(secretHex, 'hex'), Buffer.alloc(0), 'sbm order metadata seal v1', 32),
  );
  return {
    seal(orderId, order) {
      const plain = Buffer.from(
        JSON.stringify({
          s: order.sku,
          y: order.taxYear,
          k: order.coldkeys,
          a: order.amountMinor,
          c: order.currency,
          t: order.createdAt.getTime(),
        }),
      );
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(orderId));
      const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      const sealed = `${FORMAT}.${body.toString('base64url')}`;
      const parts: string[] = [];
      for (let at = 0; at < sealed.length; at += STRIPE_METADATA_MAX_VALUE) {
        parts.push(sealed.slice(at, at + STRIPE_METADATA_MAX_VALUE));
      }
      if (parts.length + CLEAR_KEYS > STRIPE_METADATA_MAX_KEYS) {
        throw new SealedOrderTooLargeError(
          `this order (${order.coldkeys.length} coldkeys) is too large for the payment processor's order ` +
            `record; list fewer coldkeys per order.`,
        );
      }
      return Object.fromEntries(parts.map((part, i) => [`${PART_KEY}${i}`, part]));
    },

    open(orderId, metadata) {
      if (metadata[`${PART_KEY}0`] === undefined) return null;
      let sealed = '';
      for (let i = 0; metadata[`${PART_KEY}${i}`] !== undefined; i++) sealed += metadata[`${PART_KEY}${i}`];
      const [format, encoded] = sealed.split('.');
      if (format !== FORMAT || !encoded) throw new SealRefusedError('the sealed order has an unknown format');
      const body = Buffer.from(encoded, 'base64url');
      if (body.length < IV_BYTES + TAG_BYTES) throw new SealRefusedError('the sealed order is cut short');
      let plain: Buffer;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(orderId));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        plain = Buffer.concat([
          decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
          decipher.final(),
        ]);
      } catch {
        throw new SealRefusedError(
          'the sealed order does not verify (altered, or sealed under another secret)',
        );
      }
      const value = JSON.parse(plain.toString('utf8')) as {
        s: string;
        y: string;
        k: string[];
        a: number;
        c: string;
        t: number;
      };
      return {
        sku: value.s,
        taxYear: value.y,
        coldkeys: value.k,
        amountMinor: value.a,
        currency: value.c,
        createdAt: new Date(value.t),
      };
    },
  };
}
