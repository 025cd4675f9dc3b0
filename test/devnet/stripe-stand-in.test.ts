/**
 * The Stripe stand-in answers as Stripe does, through the official client over HTTP: the drifts issue
 * 27 found are gone (ui_mode, required and null fields, unknown parameters, idempotency replays,
 * Price ids), and the subscription objects put the period and the invoice's subscription where the
 * pinned API version puts them.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingStripeClient, STRIPE_API_VERSION } from '../../gateway/account/stripe-billing.js';
import { StripeFake } from '../../pipeline/devnet/stripe/stripe-fake.js';

let fake: StripeFake;
let stripe: Stripe;
const nowMs = Date.UTC(2026, 10, 25, 12, 0, 0);

beforeAll(async () => {
  fake = new StripeFake({ now: () => nowMs });
  await fake.listen();
  const port = Number(new URL(fake.url).port);
  stripe = billingStripeClient('sk_test_stand_in', {
    protocol: 'http',
    host: '127.0.0.1',
    port,
    url: fake.url,
  });
});

afterAll(async () => {
  await fake?.close();
});

const paymentParams: Stripe.Checkout.SessionCreateParams = {
  mode: 'payment',
  line_items: [
    { quantity: 1, price_data: { currency: 'gbp', unit_amount: 4900, product_data: { name: 'Tax pack' } } },
  ],
  success_url: 'https://sbm.example/done',
};

describe('the Stripe stand-in', () => {
  it('pins the version the stripe package types describe', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('answers a Checkout Session with the pinned version’s ui_mode and every required field', async () => {
    const session = await stripe.checkout.sessions.create(paymentParams);
    expect(session.ui_mode).toBe('hosted_page');
    expect(session.custom_fields).toEqual([]);
    expect(session.custom_text).toEqual({
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    });
    expect(session.shipping_options).toEqual([]);
    for (const field of [
      'client_secret',
      'consent',
      'invoice',
      'setup_intent',
      'subscription',
      'wallet_options',
    ]) {
      expect(session).toHaveProperty(field, null);
    }
  });

  it('refuses an unknown parameter with 400, as Stripe does', async () => {
    const error = await stripe.checkout.sessions
      .create({ ...paymentParams, colour: 'blue' } as Stripe.Checkout.SessionCreateParams)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((error as Stripe.errors.StripeError).code).toBe('parameter_unknown');
    expect((error as Stripe.errors.StripeError).param).toBe('colour');
  });

  it('stores nothing for a request refused by validation, and replays only the same method, path and parameters', async () => {
    const key = `idem-${nowMs}`;
    const refused = await stripe.checkout.sessions
      .create(
        { mode: 'payment', success_url: 'https://sbm.example/done' } as Stripe.Checkout.SessionCreateParams,
        {
          idempotencyKey: key,
        },
      )
      .catch((e: unknown) => e);
    expect((refused as Stripe.errors.StripeError).code).toBe('parameter_missing');
    // The same key now executes: the refusal was not stored.
    const first = await stripe.checkout.sessions.create(paymentParams, { idempotencyKey: key });
    const again = await stripe.checkout.sessions.create(paymentParams, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    // The same key and parameters on another path are a different request.
    const other = await stripe.customers
      .create({ email: 'a@example.com' }, { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect((other as Stripe.errors.StripeError).type).toBe('StripeIdempotencyError');
  });

  it('takes a Price id in line items, and makes a subscription whose period is on its item', async () => {
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 9900,
      recurring: { interval: 'month' },
      product_data: { name: 'API plan' },
    });
    const customer = await stripe.customers.create({
      email: 'dev@example.com',
      metadata: { account_id: 'acc_x' },
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      subscription_data: { metadata: { account_id: 'acc_x' } },
      success_url: 'https://sbm.example/account',
    });
    expect(session).toMatchObject({
      mode: 'subscription',
      amount_total: 9900,
      currency: 'usd',
      customer: customer.id,
    });
    await fake.paySession(session.id, 'dev@example.com');
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const subscription = await stripe.subscriptions.retrieve(String(paid.subscription));
    const item = subscription.items.data[0]!;
    expect(subscription.metadata).toEqual({ account_id: 'acc_x' });
    expect(item.current_period_start).toBe(nowMs / 1000);
    expect(item.current_period_end).toBe(Date.UTC(2026, 11, 25, 12, 0, 0) / 1000);
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ billing_reason: 'subscription_create', status: 'paid' });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(fake.events.map((e) => e.event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    expect(fake.events.every((e) => e.event.api_version === STRIPE_API_VERSION)).toBe(true);

    const cancelled = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(cancelled).toMatchObject({ cancel_at_period_end: true, cancel_at: item.current_period_end });
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'https://sbm.example/account',
    });
    expect(portal.url).toMatch(/\/p\/session\/bps_test_/);
  });
});
