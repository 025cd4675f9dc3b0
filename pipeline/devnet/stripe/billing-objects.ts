import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/**
 * The billing objects of the Stripe stand-in: Customers, Prices, Subscriptions, Invoices and Billing
 * Portal sessions, each typed as the `stripe` package's type for the pinned API version
 * (`2026-10-28.endive`, generated from Stripe's OpenAPI document). Typing them so makes the compiler
 * check what the stand-in sends: every field the type declares without `?` is present, as `null` when
 * it is `X | null` and empty, as Stripe sends it.
 */
export const STAND_IN_API_VERSION = '2026-10-28.endive';

/** Decimal fields travel as strings; the client's type for them is its Decimal class. */
type WireDecimal = NonNullable<Stripe.Price['unit_amount_decimal']>;
const decimal = (text: string): WireDecimal => text as unknown as WireDecimal;

export const newStripeId = (prefix: string): string =>
  `${prefix}_test_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'a')}`;

export function customerObject(params: {
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  created: number;
}): Stripe.Customer {
  return {
    id: newStripeId('cus'),
    object: 'customer',
    balance: 0,
    created: params.created,
    default_source: null,
    description: null,
    email: params.email,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: params.metadata,
    name: params.name,
    shipping: null,
  };
}

export function priceObject(params: {
  currency: string;
  unitAmount: number;
  interval: 'day' | 'week' | 'month' | 'year' | null;
  productName: string;
  created: number;
}): Stripe.Price {
  return {
    id: newStripeId('price'),
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: params.created,
    currency: params.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: params.productName,
    product: newStripeId('prod'),
    recurring: params.interval
      ? {
          interval: params.interval,
          interval_count: 1,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: params.interval ? 'recurring' : 'one_time',
    unit_amount: params.unitAmount,
    unit_amount_decimal: decimal(String(params.unitAmount)),
  };
}

/** One calendar month on from `seconds` (UTC), clamped to the month's last day, as Stripe bills. */
export function addMonth(seconds: number): number {
  const date = new Date(seconds * 1000);
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

export function subscriptionObject(params: {
  customer: string;
  price: Stripe.Price;
  metadata: Record<string, string>;
  start: number;
}): Stripe.Subscription {
  const id = newStripeId('sub');
  const end = addMonth(params.start);
  const subscription: Stripe.Subscription = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: params.start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: params.start,
    currency: params.price.currency,
    customer: params.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: [
        {
          id: newStripeId('si'),
          object: 'subscription_item',
          billing_thresholds: null,
          created: params.start,
          current_period_end: end,
          current_period_start: params.start,
          current_trial: null,
          discounts: [],
          metadata: {},
          plan: planOf(params.price),
          price: params.price,
          quantity: 1,
          subscription: id,
          tax_rates: [],
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: params.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: null,
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: params.start,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: null,
    trial_start: null,
  };
  return subscription;
}

function planOf(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: 'plan',
    active: true,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? 'month',
    interval_count: 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function invoiceObject(params: {
  subscription: Stripe.Subscription;
  customer: Stripe.Customer;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  paid: boolean;
  created: number;
  periodStart: number;
  periodEnd: number;
}): Stripe.Invoice {
  const item = params.subscription.items.data[0]!;
  const amount = item.price.unit_amount ?? 0;
  const id = newStripeId('in');
  const line: Stripe.InvoiceLineItem = {
    id: newStripeId('il'),
    object: 'line_item',
    amount,
    currency: item.price.currency,
    description: `1 × ${item.price.nickname ?? 'plan'}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: params.billingReason === 'subscription_update',
        proration_details: null,
        subscription: params.subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period: { start: params.periodStart, end: params.periodEnd },
    pretax_credit_amounts: [],
    pricing: null,
    quantity: 1,
    quantity_decimal: decimal('1'),
    subscription: params.subscription.id,
    subtotal: amount,
    taxes: [],
  };
  const invoice: Stripe.Invoice = {
    id,
    object: 'invoice',
    account_country: 'GB',
    account_name: 'Subnet burn metrics (stand-in)',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: params.paid ? amount : 0,
    amount_remaining: params.paid ? 0 : amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: params.billingReason,
    collection_method: 'charge_automatically',
    created: params.created,
    currency: item.price.currency,
    custom_fields: null,
    customer: params.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: params.customer.email,
    customer_name: params.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: params.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: params.paid ? null : params.created + 3 * 86_400,
    number: `STANDIN-${id.slice(-6).toUpperCase()}`,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: {
        metadata: params.subscription.metadata,
        subscription: params.subscription.id,
      },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: params.periodStart,
    period_start: params.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: params.paid ? 'paid' : 'open',
    status_transitions: {
      finalized_at: params.created,
      marked_uncollectible_at: null,
      paid_at: params.paid ? params.created : null,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: params.created,
  };
  return invoice;
}

export function portalSessionObject(params: {
  customer: string;
  returnUrl: string | null;
  created: number;
  baseUrl: string;
}): Stripe.BillingPortal.Session {
  const id = newStripeId('bps');
  return {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_test_stand_in',
    created: params.created,
    customer: params.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: params.returnUrl,
    url: `${params.baseUrl}/p/session/${id}`,
  };
}

export function eventObject(type: string, object: unknown, created: number): Stripe.Event {
  return {
    id: newStripeId('evt'),
    object: 'event',
    api_version: STAND_IN_API_VERSION,
    created,
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } as unknown as Stripe.Event;
}
