import { randomBytes } from 'node:crypto';
import type { FormValue } from './form-body.js';

/**
 * A Checkout Session as Stripe's API documents it (https://docs.stripe.com/api/checkout/sessions/object),
 * with the members a hosted, one-off payment uses; the rest are present with Stripe's empty values.
 */
export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  automatic_tax: { enabled: false; liability: null; status: null };
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_creation: 'if_required';
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: null;
  metadata: Record<string, string>;
  mode: 'payment';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: 'hosted';
  url: string | null;
}

/** Stripe's error body: `{"error": {"type", "code", "message", "param"}}`. */
export class StripeFakeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    override readonly message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }

  body() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

const missing = (param: string) =>
  new StripeFakeError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );

/**
 * A new open, unpaid session from the create parameters. What a hosted payment-mode session needs is
 * checked as Stripe checks it: `mode`, `success_url`, line items with a currency and an amount.
 */
export function createSession(
  params: Record<string, FormValue>,
  options: { nowSeconds: number; payBaseUrl: string },
): FakeCheckoutSession {
  if (params['mode'] !== 'payment') {
    if (params['mode'] === undefined) throw missing('mode');
    throw new StripeFakeError(
      400,
      'invalid_request_error',
      'This stand-in serves mode=payment only.',
      undefined,
      'mode',
    );
  }
  const successUrl = text(params['success_url']);
  if (!successUrl) throw missing('success_url');
  const items = params['line_items'];
  if (!Array.isArray(items) || items.length === 0) throw missing('line_items');
  let total = 0;
  let currency: string | null = null;
  for (const [i, item] of items.entries()) {
    const entry = objectOf(item);
    const price = objectOf(entry['price_data']);
    const unit = Number(text(price['unit_amount']));
    const quantity = Number(text(entry['quantity']) ?? '1');
    const itemCurrency = text(price['currency']);
    if (!itemCurrency) throw missing(`line_items[${i}][price_data][currency]`);
    if (!Number.isInteger(unit) || unit < 0) throw missing(`line_items[${i}][price_data][unit_amount]`);
    if (!text(objectOf(price['product_data'])['name'])) {
      throw missing(`line_items[${i}][price_data][product_data][name]`);
    }
    if (currency !== null && currency !== itemCurrency) {
      throw new StripeFakeError(400, 'invalid_request_error', 'All line items must share one currency.');
    }
    currency = itemCurrency;
    total += unit * quantity;
  }
  const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, status: null },
    cancel_url: text(params['cancel_url']) ?? null,
    client_reference_id: text(params['client_reference_id']) ?? null,
    created: options.nowSeconds,
    currency: currency!,
    customer: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: text(params['customer_email']) ?? null,
    expires_at: options.nowSeconds + 24 * 3600,
    livemode: false,
    locale: null,
    metadata: stringRecord(params['metadata']),
    mode: 'payment',
    payment_intent: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${options.payBaseUrl}/c/pay/${id}`,
  };
}

function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function objectOf(value: FormValue | undefined): Record<string, FormValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function stringRecord(value: FormValue | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(objectOf(value)).flatMap(([key, v]) => (typeof v === 'string' ? [[key, v]] : [])),
  );
}
