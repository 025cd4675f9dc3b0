/**
 * The Stripe stand-in checked against the pinned API version's own types (issue 27, point 8): the
 * service's real Stripe code (the tax checkout in payment mode; the plan's customer, checkout in
 * subscription mode, portal and webhook handling) talks to the stand-in over HTTP through the official
 * client, time passes for the subscription (renewals paid and failed, a proration, a cancellation), and
 * then every JSON answer the stand-in gave, every request body it received and every event it sent is
 * validated against JSON Schemas generated from the `stripe` package's types (test/devnet/stripe-schemas.ts).
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileSubscriptions } from '../../gateway/account/reconcile-subscriptions.js';
import {
  billingStripeClient,
  openBillingPortal,
  STRIPE_API_VERSION,
  startSubscriptionCheckout,
} from '../../gateway/account/stripe-billing.js';
import { stripeCheckoutSessions, stripeClient } from '../../gateway/orders/stripe-checkout.js';
import type { OrderRecord } from '../../gateway/state/order-state.js';
import { DEFAULT_SKUS } from '../../pipeline/contract/sku.js';
import {
  KNOWN_PARAMS,
  type KnownRequest,
  type ParamShape,
} from '../../pipeline/devnet/stripe/known-params.js';
import { type BillingStandIn, startBillingStandIn } from '../support/billing-stand-in.js';
import {
  ERROR_DEFINITION,
  EVENT_DEFINITIONS,
  loadStripeSchemas,
  OBJECT_DEFINITIONS,
  PARAMS_DEFINITIONS,
  type StripeSchemas,
  SUBSCRIPTION_LIST_DEFINITION,
} from './stripe-schemas.js';

let schemas: StripeSchemas;
let world: BillingStandIn;
let deliberateErrors: unknown[] = [];

/** Which Params type a request is checked against: by method and path. */
function paramsDefinitionOf(method: string, path: string): string | null {
  if (method === 'GET' && path === '/v1/checkout/sessions')
    return PARAMS_DEFINITIONS['checkout.sessions.list'];
  if (method === 'GET' && path === '/v1/subscriptions') return PARAMS_DEFINITIONS['subscriptions.list'];
  if (method === 'DELETE' && /^\/v1\/subscriptions\/[^/]+$/.test(path)) {
    return PARAMS_DEFINITIONS['subscriptions.cancel'];
  }
  if (method !== 'POST') return null;
  if (path === '/v1/checkout/sessions') return PARAMS_DEFINITIONS['checkout.sessions.create'];
  if (/^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(path))
    return PARAMS_DEFINITIONS['checkout.sessions.expire'];
  if (path === '/v1/customers') return PARAMS_DEFINITIONS['customers.create'];
  if (path === '/v1/prices') return PARAMS_DEFINITIONS['prices.create'];
  if (/^\/v1\/subscriptions\/[^/]+$/.test(path)) return PARAMS_DEFINITIONS['subscriptions.update'];
  if (path === '/v1/billing_portal/sessions') return PARAMS_DEFINITIONS['billing_portal.sessions.create'];
  return null;
}

beforeAll(async () => {
  schemas = await loadStripeSchemas();
  world = await startBillingStandIn();
  const { fake, stripe, apiBase, state, deps, clock } = world;

  // An operator's Prices, made through the API: a monthly one and a one-time one.
  await stripe.prices.create({
    currency: 'usd',
    unit_amount: 9900,
    recurring: { interval: 'month' },
    product_data: { name: 'API plan' },
  });

  // A tax pack order: the tax checkout in payment mode, paid on the stand-in's page.
  const order = {
    id: 'ord_0123456789abcdef0123456789abcdef',
    currency: 'gbp',
    amountMinor: 3900,
    coldkeys: ['5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'],
  } as OrderRecord;
  const taxClient = stripeClient('sk_test_schema', apiBase);
  const taxCheckout = await stripeCheckoutSessions(taxClient).create(
    order,
    DEFAULT_SKUS[1]!,
    'https://sbm.example/done',
  );
  await taxClient.checkout.sessions.retrieve(taxCheckout.sessionId);
  await fake.paySession(taxCheckout.sessionId, 'buyer@example.com');
  await taxClient.checkout.sessions.retrieve(taxCheckout.sessionId);

  // A Price id in payment mode (the stand-in once took only inline price_data there).
  const oneTime = await stripe.prices.create({
    currency: 'gbp',
    unit_amount: 3900,
    product_data: { name: 'Pack' },
  });
  await stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price: oneTime.id, quantity: 1 }],
    success_url: 'https://sbm.example/done',
  });
  await stripe.prices.retrieve(oneTime.id);

  // The plan: the service's subscribe (customer, then a subscription-mode session), paid on the page.
  const account = await state.createAccount({
    id: 'acct_schema_test',
    plan: 'api',
    createdAt: new Date(clock.nowMs),
    periodAnchor: new Date(clock.nowMs),
  });
  // The first checkout is left unpaid; after the claim's 30 minutes a second click expires it.
  const abandonedUrl = await startSubscriptionCheckout(deps, account);
  clock.nowMs += 31 * 60_000;
  const checkoutUrl = await startSubscriptionCheckout(deps, account);
  expect(fake.sessions().find((s) => s.id === abandonedUrl.split('/').pop())?.status).toBe('expired');
  const session = fake.sessions().find((s) => s.url === checkoutUrl)!;
  await fake.paySession(session.id, 'holder@example.com');
  const subscriptionId = fake.session(session.id)!.subscription as string;
  await stripe.customers.retrieve(String(session.customer));
  await openBillingPortal(deps, account);

  // A second subscription arriving anyway (a session opened elsewhere, paid later) is cancelled.
  clock.nowMs += 60 * 60_000;
  const other = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: String(session.customer),
    line_items: [{ price: deps.priceId, quantity: 1 }],
    subscription_data: { metadata: { account_id: account.id } },
    success_url: 'https://sbm.example/account',
  });
  await fake.paySession(other.id, 'holder@example.com');
  expect(world.notices.map((n) => n.kept)).toEqual([subscriptionId]);

  // Time passes: a failed renewal paid later, a proration, a paid renewal, a cancellation at the
  // period's end taken back and made again, and the end.
  await fake.renewSubscription(subscriptionId, 'failed');
  await fake.payOpenInvoice(subscriptionId);
  await fake.prorateSubscription(subscriptionId);
  await fake.renewSubscription(subscriptionId, 'paid');
  await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
  await stripe.subscriptions.update(subscriptionId, {
    cancel_at_period_end: false,
    metadata: { note: 'kept' },
  });
  await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
  await fake.renewSubscription(subscriptionId, 'paid');

  // Reconcile: the completed sessions and the plan's subscriptions, listed a page of one at a time
  // (the client's auto-pagination with starting_after), as `orders reconcile` lists them.
  const completed = [];
  const since = Math.floor(clock.nowMs / 1000) - 30 * 86_400;
  for await (const listed of taxClient.checkout.sessions.list({
    created: { gte: since },
    status: 'complete',
    limit: 1,
  })) {
    completed.push(listed.id);
  }
  expect(completed.length).toBeGreaterThanOrEqual(2);
  const listedSubscriptions = [];
  for await (const listed of stripe.subscriptions.list({ status: 'all', price: deps.priceId, limit: 1 })) {
    listedSubscriptions.push(listed.id);
  }
  expect(listedSubscriptions.length).toBe(2);
  await reconcileSubscriptions(deps);

  // Requests Stripe refuses, for the shape of its error answers: an unknown parameter, a missing
  // object, no key, and one Idempotency-Key used for two different requests.
  const refused = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (e: unknown) => e,
    );
  deliberateErrors = [
    await refused(stripe.customers.create({ colour: 'blue' } as Stripe.CustomerCreateParams)),
    await refused(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: deps.priceId, quantity: 1, colour: 'blue' }],
        success_url: 'https://sbm.example/done',
      } as unknown as Stripe.Checkout.SessionCreateParams),
    ),
    await refused(stripe.subscriptions.retrieve('sub_test_missing')),
    await refused(billingStripeClient('rk_live_wrong', apiBase).customers.create({})),
    await refused(stripe.customers.create({ email: 'one@example.com' }, { idempotencyKey: 'schema-idem' })),
    await refused(stripe.customers.create({ email: 'two@example.com' }, { idempotencyKey: 'schema-idem' })),
  ];
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe('the Stripe stand-in against the pinned version’s types', () => {
  it('made the schemas from the stripe package the service runs', () => {
    // The types the schemas come from are those of the stripe package the service loads, and they
    // describe the API version the service pins.
    expect(schemas.stripeVersion).toBe(Stripe.PACKAGE_VERSION);
    expect(Stripe.API_VERSION).toBe(STRIPE_API_VERSION);
    expect(world.webhookFailures).toEqual([]);
  });

  it('answers every object in its type’s shape: required fields present, null only where allowed, nothing extra', () => {
    const answers = world.fake.calls.filter((c) => c.path.startsWith('/v1/') && c.status === 200);
    const seen = new Set<string>();
    const failures: string[] = [];
    for (const call of answers) {
      const kind = (call.answer as { object?: string }).object ?? '';
      const definition =
        kind === 'list' && call.path === '/v1/subscriptions'
          ? SUBSCRIPTION_LIST_DEFINITION
          : OBJECT_DEFINITIONS[kind as keyof typeof OBJECT_DEFINITIONS];
      if (!definition) {
        failures.push(`${call.method} ${call.path}: an answer of no known object (${kind})`);
        continue;
      }
      seen.add(kind);
      for (const error of schemas.answerErrors(definition, call.answer)) {
        failures.push(`${call.method} ${call.path} → ${kind}: ${error}`);
      }
    }
    expect(failures).toEqual([]);
    expect([...seen].sort()).toEqual(Object.keys(OBJECT_DEFINITIONS).sort());
  });

  it('received every request the service sent with parameters its Params type allows', () => {
    // The refused requests are the test's own (see the error answers below).
    // Every request with parameters (a retrieve has none); the refused ones are the test's own.
    const requests = world.fake.calls.filter(
      (c) =>
        c.path.startsWith('/v1/') &&
        c.status === 200 &&
        (c.method !== 'GET' || Object.keys(c.params).length > 0),
    );
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const call of requests) {
      const definition = paramsDefinitionOf(call.method, call.path);
      if (!definition) {
        failures.push(`${call.method} ${call.path}: no Params type for this request`);
        continue;
      }
      seen.add(definition);
      for (const error of schemas.paramsErrors(definition, call.params)) {
        failures.push(`${call.method} ${call.path}: ${error}`);
      }
    }
    expect(failures).toEqual([]);
    const modes = requests
      .filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions')
      .map((c) => c.params['mode']);
    expect(new Set(modes)).toEqual(new Set(['payment', 'subscription']));
    expect(seen).toEqual(
      new Set([
        PARAMS_DEFINITIONS['checkout.sessions.create'],
        PARAMS_DEFINITIONS['checkout.sessions.list'],
        PARAMS_DEFINITIONS['checkout.sessions.expire'],
        PARAMS_DEFINITIONS['subscriptions.cancel'],
        PARAMS_DEFINITIONS['customers.create'],
        PARAMS_DEFINITIONS['prices.create'],
        PARAMS_DEFINITIONS['subscriptions.update'],
        PARAMS_DEFINITIONS['subscriptions.list'],
        PARAMS_DEFINITIONS['billing_portal.sessions.create'],
      ]),
    );
  });

  it('sends every event as its Event type, with the data object in its type’s shape', () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const { event, delivered } of world.fake.events) {
      const definition = EVENT_DEFINITIONS[event.type as keyof typeof EVENT_DEFINITIONS];
      if (!definition) {
        failures.push(`${event.type}: an event type this test has no schema for`);
        continue;
      }
      seen.add(event.type);
      if (delivered !== 200) failures.push(`${event.type} ${event.id}: delivery answered ${delivered}`);
      // As sent: the JSON text, not the object in memory.
      const wire: unknown = JSON.parse(JSON.stringify(event));
      for (const error of schemas.answerErrors(definition, wire)) failures.push(`${event.type}: ${error}`);
    }
    expect(failures).toEqual([]);
    expect([...seen].sort()).toEqual(
      [
        'checkout.session.completed',
        'checkout.session.expired',
        'customer.subscription.created',
        'customer.subscription.deleted',
        'customer.subscription.updated',
        'invoice.paid',
        'invoice.payment_failed',
      ].sort(),
    );
  });

  it('answers a refused request with Stripe’s error shape, and nothing else failed', () => {
    expect(deliberateErrors.map((e) => (e instanceof Stripe.errors.StripeError ? e.type : e))).toEqual([
      'StripeInvalidRequestError',
      'StripeInvalidRequestError',
      'StripeInvalidRequestError',
      'StripeAuthenticationError',
      'accepted',
      'StripeIdempotencyError',
    ]);
    const errors = world.fake.calls.filter((c) => c.path.startsWith('/v1/') && c.status !== 200);
    expect(errors.map((c) => c.status)).toEqual([400, 400, 404, 401, 400]);
    const failures = errors.flatMap((c) => {
      const { error, ...rest } = c.answer as { error: unknown };
      return [
        ...Object.keys(rest).map((key) => `${c.method} ${c.path}: a field beside "error": ${key}`),
        ...schemas.answerErrors(ERROR_DEFINITION, error).map((e) => `${c.method} ${c.path}: ${e}`),
      ];
    });
    expect(failures).toEqual([]);
    expect(errors.map((c) => (c.answer as { error: { type: string } }).error.type)).toEqual([
      'invalid_request_error',
      'invalid_request_error',
      'invalid_request_error',
      'invalid_request_error',
      'idempotency_error',
    ]);
    expect(errors.slice(0, 2).map((c) => (c.answer as { error: { param?: string } }).error.param)).toEqual([
      'colour',
      'line_items[0][colour]',
    ]);
  });

  it('takes only parameters the pinned version declares (the stand-in refuses every other one)', () => {
    const sample = (shape: ParamShape): unknown =>
      shape === 'any'
        ? 'x'
        : Array.isArray(shape)
          ? [sample(shape[0])]
          : Object.fromEntries(Object.entries(shape).map(([name, inner]) => [name, sample(inner)]));
    const unknown = Object.entries(KNOWN_PARAMS).flatMap(([request, shape]) =>
      schemas
        .paramsErrors(PARAMS_DEFINITIONS[request as KnownRequest], sample(shape))
        .filter((error) => error.includes('additional properties'))
        .map((error) => `${request}: ${error}`),
    );
    expect(unknown).toEqual([]);
    expect(Object.keys(KNOWN_PARAMS).sort()).toEqual(Object.keys(PARAMS_DEFINITIONS).sort());
  });

  it('would catch the drifts issue 27 found (the check can fail)', () => {
    const answer = world.fake.calls.find(
      (c) => c.path === '/v1/checkout/sessions' && c.status === 200 && c.params['mode'] === 'payment',
    )!.answer as Record<string, unknown>;
    const session = OBJECT_DEFINITIONS['checkout.session'];
    expect(schemas.answerErrors(session, answer)).toEqual([]);
    expect(schemas.answerErrors(session, { ...answer, ui_mode: 'hosted' })).not.toEqual([]);
    const { custom_fields: _fields, client_secret: _secret, ...missing } = answer;
    expect(schemas.answerErrors(session, missing).join('\n')).toMatch(
      /custom_fields[\s\S]*client_secret|client_secret[\s\S]*custom_fields/,
    );
    expect(schemas.answerErrors(session, { ...answer, shipping_options: null })).not.toEqual([]);
    expect(schemas.answerErrors(session, { ...answer, colour: 'blue' })).toEqual([
      '/ must NOT have additional properties (colour)',
    ]);
    const params = PARAMS_DEFINITIONS['checkout.sessions.create'];
    expect(
      schemas.paramsErrors(params, { mode: 'payment', success_url: 'https://x', colour: 'blue' }),
    ).toEqual(['/ must NOT have additional properties (colour)']);
    expect(schemas.paramsErrors(params, { mode: 'hosted' })).not.toEqual([]);
  });
});
