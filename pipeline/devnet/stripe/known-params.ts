import type { FormValue } from './form-body.js';

/**
 * The parameters the Stripe stand-in takes on each request, nested as Stripe nests them, so that it
 * refuses an unknown one at any depth (`line_items[0][colour]`) with 400 `parameter_unknown`, as
 * Stripe does. `'any'` is a value or a free map (`metadata`); an object lists named parameters; a
 * one-element array is a list of that shape. Each name here is one the pinned API version's Params
 * type declares (test/devnet/stripe-schema.test.ts checks that); `expand` is taken everywhere.
 */
export type ParamShape = 'any' | ParamShapes | [ParamShape];
export interface ParamShapes {
  [name: string]: ParamShape;
}

const metadata = 'any';

export const KNOWN_PARAMS = {
  'checkout.sessions.create': {
    mode: 'any',
    success_url: 'any',
    cancel_url: 'any',
    client_reference_id: 'any',
    customer: 'any',
    customer_email: 'any',
    metadata,
    ui_mode: 'any',
    line_items: [
      {
        price: 'any',
        quantity: 'any',
        metadata,
        price_data: {
          currency: 'any',
          unit_amount: 'any',
          unit_amount_decimal: 'any',
          product: 'any',
          tax_behavior: 'any',
          product_data: { name: 'any', description: 'any', images: 'any', metadata, tax_code: 'any' },
          recurring: { interval: 'any', interval_count: 'any' },
        },
      },
    ],
    payment_intent_data: {
      metadata,
      description: 'any',
      receipt_email: 'any',
      statement_descriptor: 'any',
      statement_descriptor_suffix: 'any',
    },
    subscription_data: { metadata, description: 'any' },
  },
  'checkout.sessions.list': {
    created: { gt: 'any', gte: 'any', lt: 'any', lte: 'any' },
    customer: 'any',
    status: 'any',
    subscription: 'any',
    limit: 'any',
    starting_after: 'any',
    ending_before: 'any',
  },
  'subscriptions.list': {
    created: { gt: 'any', gte: 'any', lt: 'any', lte: 'any' },
    customer: 'any',
    price: 'any',
    status: 'any',
    limit: 'any',
    starting_after: 'any',
    ending_before: 'any',
  },
  'checkout.sessions.expire': {},
  'customers.create': { email: 'any', name: 'any', metadata, description: 'any' },
  'prices.create': {
    currency: 'any',
    unit_amount: 'any',
    nickname: 'any',
    metadata,
    recurring: { interval: 'any', interval_count: 'any', usage_type: 'any' },
    product_data: { name: 'any', metadata, statement_descriptor: 'any', unit_label: 'any' },
  },
  'subscriptions.update': { cancel_at_period_end: 'any', metadata },
  'subscriptions.cancel': {
    cancellation_details: { comment: 'any', feedback: 'any' },
    invoice_now: 'any',
    prorate: 'any',
  },
  'billing_portal.sessions.create': {
    customer: 'any',
    return_url: 'any',
    configuration: 'any',
    locale: 'any',
  },
} satisfies Record<string, ParamShapes>;

export type KnownRequest = keyof typeof KNOWN_PARAMS;

/**
 * The first parameter of `params` that `shape` does not take, in Stripe's bracketed spelling
 * (`line_items[0][colour]`), or null when every one is known.
 */
export function unknownParam(
  params: Record<string, FormValue>,
  shape: ParamShapes,
  prefix = '',
): string | null {
  for (const [name, value] of Object.entries(params)) {
    const path = prefix ? `${prefix}[${name}]` : name;
    if (!prefix && name === 'expand') continue;
    const inner = Object.hasOwn(shape, name) ? shape[name] : undefined;
    if (inner === undefined) return path;
    const found = unknownIn(value, inner, path);
    if (found) return found;
  }
  return null;
}

function unknownIn(value: FormValue, shape: ParamShape, path: string): string | null {
  if (shape === 'any' || typeof value === 'string') return null;
  if (Array.isArray(shape)) {
    const items = Array.isArray(value) ? value : Object.values(value);
    for (const [i, item] of items.entries()) {
      const found = unknownIn(item, shape[0], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (Array.isArray(value)) return `${path}[0]`;
  return unknownParam(value, shape, path);
}
