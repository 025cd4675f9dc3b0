/**
 * The tax orders' settings, parsed from the environment object `gateway/config.ts` hands over (this
 * module never reads `process.env`). Secrets are kept as given and never printed.
 */
import { ConfigError, type Env, readInteger } from '../../pipeline/config.js';
import type { SkuId } from '../../pipeline/contract/sku.js';
import { isSkuId } from './catalogue.js';
import { isOrderSecret } from './order-token.js';

/** Where the Stripe client sends its requests: Stripe itself by default, or a stand-in (`STRIPE_API_BASE`). */
export interface StripeApiBase {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  /** As configured, for messages. */
  url: string;
}

export interface OrderConfig {
  /** `SBM_ORDER_SECRET`: 64 hex digits; null when unset (the order routes then answer 503). */
  orderSecret: string | null;
  /** `STRIPE_SECRET_KEY` (`sk_live_…` / `sk_test_…`); null: checkout answers 503. */
  stripeSecretKey: string | null;
  /** `STRIPE_WEBHOOK_SECRET` (`whsec_…`); null: the webhook answers 503, so Stripe retries later. */
  stripeWebhookSecret: string | null;
  /** `STRIPE_API_BASE`; null: api.stripe.com. */
  stripeApiBase: StripeApiBase | null;
  /** `SBM_SKU_PRICES=uk-2025-26:4900,…`: prices in pence replacing the catalogue's defaults. */
  skuPrices: Partial<Record<SkuId, number>>;
  /** `SBM_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…`); null: emails go to `outboxDir` as .eml files. */
  smtpUrl: string | null;
  /** `SBM_OUTBOX_DIR`, default `./data/outbox`. */
  outboxDir: string;
  /** `SBM_MAIL_FROM`, the sender of delivery emails. */
  mailFrom: string;
  /** `SBM_FULFIL_MAX_ATTEMPTS`: tries of a pack build before the order is reported stuck. */
  fulfilMaxAttempts: number;
}

export const ORDER_DEFAULTS = {
  outboxDir: './data/outbox',
  mailFrom: 'Subnet burn metrics <packs@localhost>',
  fulfilMaxAttempts: 5,
} as const;

/** Stripe refuses GBP charges under 30p. */
const MIN_PRICE_MINOR = 30;

export function readOrderConfig(env: Env): OrderConfig {
  const orderSecret = env['SBM_ORDER_SECRET'] || null;
  if (orderSecret !== null && !isOrderSecret(orderSecret)) {
    throw new ConfigError(
      'SBM_ORDER_SECRET must be 64 hex digits (32 random bytes), e.g. from `openssl rand -hex 32`',
    );
  }
  return {
    orderSecret,
    stripeSecretKey: env['STRIPE_SECRET_KEY'] || null,
    stripeWebhookSecret: env['STRIPE_WEBHOOK_SECRET'] || null,
    stripeApiBase: readStripeApiBase(env['STRIPE_API_BASE']),
    skuPrices: readSkuPrices(env['SBM_SKU_PRICES']),
    smtpUrl: readSmtpUrl(env['SBM_SMTP_URL']),
    outboxDir: env['SBM_OUTBOX_DIR'] || ORDER_DEFAULTS.outboxDir,
    mailFrom: env['SBM_MAIL_FROM'] || ORDER_DEFAULTS.mailFrom,
    fulfilMaxAttempts: readInteger(env, 'SBM_FULFIL_MAX_ATTEMPTS', ORDER_DEFAULTS.fulfilMaxAttempts, 1),
  };
}

function readStripeApiBase(raw: string | undefined): StripeApiBase | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/+$/, '') !== '') {
    throw new ConfigError(
      `STRIPE_API_BASE must be http(s)://host[:port] without a path (the client adds /v1/...), got "${raw}"`,
    );
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    protocol,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    url: `${url.protocol}//${url.host}`,
  };
}

function readSkuPrices(raw: string | undefined): Partial<Record<SkuId, number>> {
  const prices: Partial<Record<SkuId, number>> = {};
  if (!raw) return prices;
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const match = /^([a-z0-9-]+):(\d+)$/.exec(part);
    if (!match || !isSkuId(match[1]!)) {
      throw new ConfigError(
        `SBM_SKU_PRICES entries are <sku>:<pence> with a known SKU (uk-2024-25, uk-2025-26, uk-2026-27), got "${part}"`,
      );
    }
    const amount = Number(match[2]);
    if (amount < MIN_PRICE_MINOR || !Number.isSafeInteger(amount)) {
      throw new ConfigError(`SBM_SKU_PRICES: ${match[1]} must cost at least ${MIN_PRICE_MINOR} pence`);
    }
    prices[match[1] as SkuId] = amount;
  }
  return prices;
}

function readSmtpUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  if (!/^smtps?:\/\//i.test(raw)) {
    // The value may hold a password: name the form, not the value.
    throw new ConfigError('SBM_SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…');
  }
  return raw;
}
