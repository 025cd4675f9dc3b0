import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { FormValue } from './form-body.js';
import { KNOWN_PARAMS, type KnownRequest, unknownParam } from './known-params.js';

/**
 * A Checkout Session as the pinned API version types it (`Stripe.Checkout.Session`): every field the
 * type declares without `?` is sent, `null` where it is `X | null` and empty, as Stripe sends it.
 */
export type FakeCheckoutSession = Stripe.Checkout.Session;

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

/** Stripe's 400 for a parameter the request does not take, at any depth (`line_items[0][colour]`). */
export function refuseUnknownParams(params: Record<string, FormValue>, request: KnownRequest): void {
  const unknown = unknownParam(params, KNOWN_PARAMS[request]);
  if (unknown !== null) {
    throw new StripeFakeError(
      400,
      'invalid_request_error',
      `Received unknown parameter: ${unknown}`,
      'parameter_unknown',
      unknown,
    );
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
 * A new open, unpaid session from the create parameters, checked as Stripe checks them: `mode`
 * (payment or subscription), `success_url`, line items with a Price id (`line_items[].price`, a
 * recurring one in subscription mode) or inline `price_data`, and no parameter Stripe would not know.
 */
export function createSession(
  params: Record<string, FormValue>,
  options: {
    nowSeconds: number;
    payBaseUrl: string;
    /** Looks up a Price by id (the stand-in's Prices). */
    price?: (id: string) => Stripe.Price | undefined;
    /** Looks up a Customer by id. */
    customerExists?: (id: string) => boolean;
  },
): FakeCheckoutSession {
  refuseUnknownParams(params, 'checkout.sessions.create');
  const mode = params['mode'];
  if (mode === undefined) throw missing('mode');
  if (mode !== 'payment' && mode !== 'subscription') {
    throw new StripeFakeError(
      400,
      'invalid_request_error',
      `Invalid mode: must be one of payment, setup or subscription (this stand-in serves payment and subscription).`,
      'parameter_invalid_string',
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
    const quantity = Number(text(entry['quantity']) ?? '1');
    let unit: number;
    let itemCurrency: string | undefined;
    const priceId = text(entry['price']);
    if (priceId !== undefined) {
      const price = options.price?.(priceId);
      if (!price) {
        throw new StripeFakeError(
          400,
          'invalid_request_error',
          `No such price: '${priceId}'`,
          'resource_missing',
          `line_items[${i}][price]`,
        );
      }
      if (mode === 'subscription' && !price.recurring) {
        throw new StripeFakeError(
          400,
          'invalid_request_error',
          'You must provide at least one recurring price in `subscription` mode when using prices.',
          undefined,
          `line_items[${i}][price]`,
        );
      }
      unit = price.unit_amount ?? 0;
      itemCurrency = price.currency;
    } else {
      const price = objectOf(entry['price_data']);
      unit = Number(text(price['unit_amount']));
      itemCurrency = text(price['currency']);
      if (!itemCurrency) throw missing(`line_items[${i}][price_data][currency]`);
      if (!Number.isInteger(unit) || unit < 0) throw missing(`line_items[${i}][price_data][unit_amount]`);
      if (!text(objectOf(price['product_data'])['name'])) {
        throw missing(`line_items[${i}][price_data][product_data][name]`);
      }
    }
    if (currency !== null && currency !== itemCurrency) {
      throw new StripeFakeError(400, 'invalid_request_error', 'All line items must share one currency.');
    }
    currency = itemCurrency;
    total += unit * quantity;
  }
  const customer = text(params['customer']) ?? null;
  if (customer !== null && options.customerExists && !options.customerExists(customer)) {
    throw new StripeFakeError(
      400,
      'invalid_request_error',
      `No such customer: '${customer}'`,
      'resource_missing',
      'customer',
    );
  }
  const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
  const session: FakeCheckoutSession = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: text(params['cancel_url']) ?? null,
    client_reference_id: text(params['client_reference_id']) ?? null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: options.nowSeconds,
    currency: currency!,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer,
    customer_account: null,
    customer_creation: mode === 'payment' && customer === null ? 'if_required' : null,
    customer_details: null,
    customer_email: text(params['customer_email']) ?? null,
    discounts: null,
    expires_at: options.nowSeconds + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: stringRecord(params['metadata']),
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: `${options.payBaseUrl}/c/pay/${id}`,
    wallet_options: null,
  };
  return session;
}

/** `subscription_data[metadata]` of the create parameters: copied onto the subscription Stripe makes. */
export function subscriptionMetadataOf(params: Record<string, FormValue>): Record<string, string> {
  return stringRecord(objectOf(params['subscription_data'])['metadata']);
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
