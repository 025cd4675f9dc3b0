import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  addMonth,
  customerObject,
  eventObject,
  invoiceObject,
  portalSessionObject,
  priceObject,
  subscriptionObject,
} from './billing-objects.js';
import {
  createSession,
  type FakeCheckoutSession,
  refuseUnknownParams,
  StripeFakeError,
  subscriptionMetadataOf,
} from './checkout-session.js';
import { type FormValue, parseStripeForm } from './form-body.js';
import { listPage } from './list-page.js';
import { paymentIntentObject } from './payment-intent.js';

/** One request the stand-in received, for tests to inspect. */
export interface RecordedStripeCall {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, FormValue>;
  /** True when the answer was a stored idempotent result (`Idempotent-Replayed: true`). */
  replayed: boolean;
  status: number;
  /** The JSON answer as sent (null for the hosted pages), so tests can check its shape. */
  answer: unknown;
}

interface StoredResult {
  /** Method, path and parameters: a replay matches all three (Stripe compares the whole request). */
  requestHash: string;
  status: number;
  body: unknown;
}

/**
 * A stand-in for Stripe's API, for the sandbox, the demo and tests (we cannot run Stripe here). It
 * answers what the gateway calls, in the shapes of the pinned API version's types (see
 * billing-objects.ts), over real HTTP, so the official `stripe` client talks to it unchanged (`host`,
 * `port`, `protocol` options; `STRIPE_API_BASE`):
 *
 * - Customers and Prices (create, retrieve); Checkout Sessions in payment and subscription mode
 *   (create, retrieve, list, expire); Subscriptions (list, retrieve, update `cancel_at_period_end`,
 *   cancel); lists page as Stripe's do (`created` ranges, `limit`, `starting_after`, `has_more`);
 *   Invoices (retrieve); Billing Portal sessions (create); the PaymentIntent of a paid payment-mode
 *   session (retrieve: its `created` is the time of the payment);
 * - the hosted pages: `GET /c/pay/{id}` (checkout: its "Pay" button completes the payment as Stripe's
 *   page does, sends the events and redirects to `success_url`) and `GET /p/session/{id}` (portal:
 *   cancel at period end, then back to `return_url`); `POST /_stand-in/checkout/sessions/{id}/complete`
 *   (`email`): the session paid as the checkout page pays it, without the events (`stripe
 *   simulate-payment` sends its own);
 * - time passing for a subscription (`renewSubscription` paid or failed, `endSubscription`,
 *   `prorateSubscription`; also `POST /_stand-in/subscriptions/{id}/{renew-paid|renew-failed|end}`);
 * - events signed as Stripe signs them, POSTed to the webhook set by `setWebhook(url, secret)`;
 * - every API request needs `Authorization: Bearer sk_test_…` (401 otherwise); an unknown parameter,
 *   at any depth, is a 400 (known-params.ts); a POST with an `Idempotency-Key` seen before gets the first answer again
 *   (`Idempotent-Replayed: true`) when method, path and parameters match, else 400
 *   `idempotency_error`; a request refused by validation stores nothing, as Stripe saves a result only
 *   once the request starts executing.
 *
 * `dropNextResponses(n)` makes it do the work of the next n requests and then close the connection
 * without answering: the "request reached Stripe, the answer was lost" case that idempotency keys exist
 * for. It lives in pipeline/devnet/ rather than under test/ because `make demo` starts it too, and
 * shipped code may not import test support (the layer rules).
 */
export class StripeFake {
  readonly calls: RecordedStripeCall[] = [];
  /** Every event made, in order, with the answer of its delivery (null: no webhook set). */
  readonly events: { event: Stripe.Event; delivered: number | null }[] = [];
  readonly #sessions = new Map<string, FakeCheckoutSession>();
  readonly #sessionSubscriptionMetadata = new Map<string, Record<string, string>>();
  readonly #customers = new Map<string, Stripe.Customer>();
  readonly #prices = new Map<string, Stripe.Price>();
  readonly #subscriptions = new Map<string, Stripe.Subscription>();
  readonly #invoices = new Map<string, Stripe.Invoice>();
  readonly #portals = new Map<string, Stripe.BillingPortal.Session>();
  readonly #paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly #idempotent = new Map<string, StoredResult>();
  readonly #now: () => number;
  #webhooks: { url: string; secret: string }[] = [];
  #server: Server | undefined;
  #url = '';
  #drop = 0;

  constructor(options: { now?: () => number; webhook?: { url: string; secret: string } } = {}) {
    this.#now = options.now ?? Date.now;
    if (options.webhook) this.#webhooks.push(options.webhook);
  }

  /** The base URL to give the client (`STRIPE_API_BASE`). */
  get url(): string {
    return this.#url;
  }

  /** Where events go (the gateway's `/account/webhooks/stripe`) and the endpoint's signing secret. */
  setWebhook(url: string, secret: string): void {
    this.#webhooks = [{ url, secret }];
  }

  /** One more endpoint: every event goes to each (each ignores what it does not handle), as Stripe's do. */
  addWebhook(url: string, secret: string): void {
    this.#webhooks.push({ url, secret });
  }

  async listen(host = '127.0.0.1', port = 0): Promise<string> {
    const server = createServer((request, response) => {
      this.#handle(request, response).catch(() => response.destroy());
    });
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    this.#url = `http://${host}:${address.port}`;
    return this.#url;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  sessions(): FakeCheckoutSession[] {
    return [...this.#sessions.values()];
  }

  session(id: string): FakeCheckoutSession | undefined {
    return this.#sessions.get(id);
  }

  subscriptions(): Stripe.Subscription[] {
    return [...this.#subscriptions.values()];
  }

  subscription(id: string): Stripe.Subscription | undefined {
    return this.#subscriptions.get(id);
  }

  invoices(): Stripe.Invoice[] {
    return [...this.#invoices.values()];
  }

  /** A Price as an operator makes one in the dashboard (the demo and tests: the plan's 99 USD a month). */
  createPrice(options: {
    unitAmount: number;
    currency: string;
    interval: 'month' | null;
    name: string;
  }): Stripe.Price {
    const price = priceObject({
      currency: options.currency,
      unitAmount: options.unitAmount,
      interval: options.interval,
      productName: options.name,
      created: this.#seconds(),
    });
    this.#prices.set(price.id, price);
    return price;
  }

  dropNextResponses(count: number): void {
    this.#drop = count;
  }

  /** The PaymentIntent a paid payment-mode session made (its `created`: the time of the payment). */
  paymentIntent(id: string): Stripe.PaymentIntent | undefined {
    return this.#paymentIntents.get(id);
  }

  /**
   * Marks a session paid by `email`, as Stripe does when the buyer completes the page (no event). In
   * payment mode the session's PaymentIntent is made now, as Stripe makes it on confirmation: its
   * `created` is the time of the payment.
   */
  completeSession(id: string, email: string): FakeCheckoutSession {
    const session = this.#sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer_details = {
      address: null,
      business_name: null,
      email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    if (session.mode === 'payment') {
      const intent = paymentIntentObject({
        amount: session.amount_total ?? 0,
        currency: session.currency ?? 'gbp',
        created: this.#seconds(),
        email,
      });
      this.#paymentIntents.set(intent.id, intent);
      session.payment_intent = intent.id;
    }
    return session;
  }

  /**
   * What Stripe's hosted page does when the buyer pays: completes the session, and in subscription
   * mode makes the customer (if the session had none), the subscription and its first, paid invoice;
   * then sends the events. Returns where the buyer is sent (`success_url`).
   */
  async paySession(id: string, email: string): Promise<string | null> {
    const session = this.completeSession(id, email);
    const now = this.#seconds();
    if (session.mode === 'subscription') {
      let customer = typeof session.customer === 'string' ? this.#customers.get(session.customer) : undefined;
      if (!customer) {
        customer = customerObject({ email, name: null, metadata: {}, created: now });
        this.#customers.set(customer.id, customer);
        session.customer = customer.id;
      }
      const priceId = this.#sessionPrice.get(id)!;
      const subscription = subscriptionObject({
        customer: customer.id,
        price: this.#prices.get(priceId)!,
        metadata: this.#sessionSubscriptionMetadata.get(id) ?? {},
        start: now,
      });
      this.#subscriptions.set(subscription.id, subscription);
      const item = subscription.items.data[0]!;
      const invoice = invoiceObject({
        subscription,
        customer,
        billingReason: 'subscription_create',
        paid: true,
        created: now,
        periodStart: item.current_period_start,
        periodEnd: item.current_period_end,
      });
      this.#invoices.set(invoice.id, invoice);
      subscription.latest_invoice = invoice.id;
      session.subscription = subscription.id;
      session.invoice = invoice.id;
      await this.#emit('customer.subscription.created', subscription);
      await this.#emit('invoice.paid', invoice);
    }
    await this.#emit('checkout.session.completed', session);
    return session.success_url;
  }

  /**
   * A subscription's period comes to its end and Stripe bills the next one: the item's period moves on
   * one month and a `subscription_cycle` invoice is made, paid (`invoice.paid`, status active) or not
   * (`invoice.payment_failed`, status past_due). A subscription set to cancel at the period's end ends
   * instead (`customer.subscription.deleted`).
   */
  async renewSubscription(id: string, outcome: 'paid' | 'failed'): Promise<Stripe.Subscription> {
    const subscription = this.#mustSubscription(id);
    if (subscription.cancel_at_period_end) return this.endSubscription(id);
    const item = subscription.items.data[0]!;
    const start = item.current_period_end;
    item.current_period_start = start;
    item.current_period_end = addMonth(start);
    const invoice = this.#invoice(subscription, 'subscription_cycle', outcome === 'paid');
    subscription.status = outcome === 'paid' ? 'active' : 'past_due';
    await this.#emit('customer.subscription.updated', subscription);
    await this.#emit(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
    return subscription;
  }

  /** A failed renewal's invoice is paid after all (the card was updated): `invoice.paid`, active. */
  async payOpenInvoice(subscriptionId: string): Promise<Stripe.Invoice> {
    const subscription = this.#mustSubscription(subscriptionId);
    const invoice = [...this.#invoices.values()]
      .reverse()
      .find((i) => i.parent?.subscription_details?.subscription === subscriptionId && i.status === 'open');
    if (!invoice) throw new Error(`no open invoice for ${subscriptionId}`);
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = this.#seconds();
    subscription.status = 'active';
    await this.#emit('invoice.paid', invoice);
    await this.#emit('customer.subscription.updated', subscription);
    return invoice;
  }

  /** The subscription ends now (at its period's end after a cancellation): `customer.subscription.deleted`. */
  async endSubscription(id: string): Promise<Stripe.Subscription> {
    const subscription = this.#mustSubscription(id);
    const now = this.#seconds();
    subscription.status = 'canceled';
    subscription.ended_at = now;
    subscription.canceled_at ??= now;
    await this.#emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** A mid-period change billed at once: a paid `subscription_update` invoice (a proration). */
  async prorateSubscription(id: string): Promise<Stripe.Invoice> {
    const subscription = this.#mustSubscription(id);
    const invoice = this.#invoice(subscription, 'subscription_update', true, this.#seconds());
    await this.#emit('invoice.paid', invoice);
    return invoice;
  }

  /** Sends an event made before once more (Stripe delivers at least once). */
  async redeliver(eventId: string): Promise<number | null> {
    const entry = this.events.find((e) => e.event.id === eventId);
    if (!entry) throw new Error(`no event ${eventId}`);
    return this.#deliver(entry.event);
  }

  #invoice(
    subscription: Stripe.Subscription,
    reason: 'subscription_cycle' | 'subscription_update',
    paid: boolean,
    periodStartOverride?: number,
  ): Stripe.Invoice {
    const item = subscription.items.data[0]!;
    const customer = this.#customers.get(String(subscription.customer))!;
    const invoice = invoiceObject({
      subscription,
      customer,
      billingReason: reason,
      paid,
      created: this.#seconds(),
      periodStart: periodStartOverride ?? item.current_period_start,
      periodEnd: item.current_period_end,
    });
    this.#invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  #mustSubscription(id: string): Stripe.Subscription {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) throw new Error(`no subscription ${id}`);
    return subscription;
  }

  #seconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  readonly #sessionPrice = new Map<string, string>();

  async #emit(type: string, object: unknown): Promise<void> {
    const event = eventObject(type, object, this.#seconds());
    const entry = { event, delivered: null as number | null };
    this.events.push(entry);
    entry.delivered = await this.#deliver(event);
  }

  /** Posts the event to every endpoint; the answer is the worst status (0: unreachable), null: none set. */
  async #deliver(event: Stripe.Event): Promise<number | null> {
    if (this.#webhooks.length === 0) return null;
    const payload = JSON.stringify(event);
    let worst: number | null = null;
    for (const webhook of this.#webhooks) {
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: webhook.secret,
        timestamp: this.#seconds(),
      });
      let status = 0;
      try {
        const response = await fetch(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      }
      if (worst === null || status === 0 || (status !== 200 && worst === 200)) worst = status;
    }
    return worst;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://stripe.fake');
    const path = url.pathname;
    // The client sends a POST's parameters in the body, a GET's and a DELETE's in the query.
    const params = parseStripeForm(method === 'POST' ? body : url.search.slice(1));
    const idempotencyKey = header(request, 'idempotency-key');
    const call: RecordedStripeCall = {
      method,
      path,
      idempotencyKey,
      params,
      replayed: false,
      status: 0,
      answer: null,
    };
    this.calls.push(call);

    if (!path.startsWith('/v1/')) {
      const [status, headers, html] = await this.#page(method, path, params);
      call.status = status;
      response.writeHead(status, headers);
      response.end(html);
      return;
    }

    let status: number;
    let answer: unknown;
    let replayed = false;
    const requestHash = hashOf({ method, path, params });
    const stored = idempotencyKey && method === 'POST' ? this.#idempotent.get(idempotencyKey) : undefined;
    if (stored) {
      if (stored.requestHash !== requestHash) {
        [status, answer] = errorAnswer(
          new StripeFakeError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          ),
        );
      } else {
        [status, answer, replayed] = [stored.status, stored.body, true];
      }
    } else {
      [status, answer] = await this.#answer(request, method, path, params);
      // Stripe stores a result once the request executed: not for auth failures, unknown URLs or a
      // request refused by validation before it ran.
      if (idempotencyKey && method === 'POST' && status !== 401 && status !== 404 && status !== 400) {
        this.#idempotent.set(idempotencyKey, { requestHash, status, body: answer });
      }
    }
    call.status = status;
    call.replayed = replayed;
    call.answer = JSON.parse(JSON.stringify(answer)) as unknown;
    if (this.#drop > 0) {
      this.#drop -= 1;
      response.socket?.destroy();
      return;
    }
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(7).toString('hex')}`,
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    });
    response.end(JSON.stringify(answer));
  }

  /** The hosted pages (checkout, portal) and the time controls. */
  async #page(
    method: string,
    path: string,
    params: Record<string, FormValue>,
  ): Promise<[number, Record<string, string>, string]> {
    const htmlHeaders = { 'content-type': 'text/html; charset=utf-8' };
    const see = (location: string): [number, Record<string, string>, string] => [303, { location }, ''];
    const pay = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(path);
    if (pay) {
      const session = this.#sessions.get(pay[1]!);
      if (method === 'POST' && session && session.status === 'open') {
        const email =
          typeof params['email'] === 'string' && params['email'] ? params['email'] : 'buyer@example.com';
        const next = await this.paySession(session.id, email);
        return see(next ?? `${this.#url}/c/pay/${session.id}`);
      }
      return [session ? 200 : 404, htmlHeaders, payPage(pay[1]!, session)];
    }
    const portal = /^\/p\/session\/([A-Za-z0-9_]+)(\/cancel)?$/.exec(path);
    if (portal) {
      const session = this.#portals.get(portal[1]!);
      if (!session)
        return [404, htmlHeaders, '<!doctype html><title>Not found</title><p>No portal session.</p>'];
      if (method === 'POST' && portal[2]) {
        const subscription = this.#subscriptions.get(String(params['subscription'] ?? ''));
        if (
          subscription &&
          subscription.customer === session.customer &&
          !subscription.cancel_at_period_end
        ) {
          subscription.cancel_at_period_end = true;
          subscription.cancel_at = subscription.items.data[0]!.current_period_end;
          subscription.canceled_at = this.#seconds();
          await this.#emit('customer.subscription.updated', subscription);
        }
        return see(`${this.#url}/p/session/${session.id}`);
      }
      const subscriptions = [...this.#subscriptions.values()].filter((s) => s.customer === session.customer);
      return [200, htmlHeaders, portalPage(session, subscriptions)];
    }
    // `stripe simulate-payment`: the session completed as the hosted page completes it, with no event
    // sent (the command sends the event itself, signed, to the gateway it names).
    const complete = /^\/_stand-in\/checkout\/sessions\/([A-Za-z0-9_]+)\/complete$/.exec(path);
    if (complete && method === 'POST') {
      const session = this.#sessions.get(complete[1]!);
      const json = { 'content-type': 'application/json' };
      if (!session) return [404, json, JSON.stringify({ error: { message: 'no such checkout session' } })];
      if (session.status !== 'open') {
        return [
          409,
          json,
          JSON.stringify({ error: { message: `the checkout session is ${session.status}, not open` } }),
        ];
      }
      const email =
        typeof params['email'] === 'string' && params['email'] ? params['email'] : 'buyer@example.com';
      return [200, json, JSON.stringify(this.completeSession(session.id, email))];
    }
    const control =
      /^\/_stand-in\/subscriptions\/([A-Za-z0-9_]+)\/(renew-paid|renew-failed|end|pay-open-invoice)$/.exec(
        path,
      );
    if (control && method === 'POST') {
      const id = control[1]!;
      if (!this.#subscriptions.has(id)) return [404, htmlHeaders, 'no such subscription'];
      if (control[2] === 'renew-paid') await this.renewSubscription(id, 'paid');
      else if (control[2] === 'renew-failed') await this.renewSubscription(id, 'failed');
      else if (control[2] === 'pay-open-invoice') await this.payOpenInvoice(id);
      else await this.endSubscription(id);
      return [200, { 'content-type': 'application/json' }, JSON.stringify(this.#subscriptions.get(id))];
    }
    return [404, htmlHeaders, '<!doctype html><title>Not found</title><p>Not a stand-in page.</p>'];
  }

  async #answer(
    request: IncomingMessage,
    method: string,
    path: string,
    params: Record<string, FormValue>,
  ): Promise<[number, unknown]> {
    const auth = header(request, 'authorization') ?? '';
    if (!/^Bearer sk_test_\S+$/.test(auth)) {
      return errorAnswer(
        new StripeFakeError(
          401,
          'invalid_request_error',
          'Invalid API Key provided. This stand-in accepts test-mode secret keys (sk_test_…) only.',
        ),
      );
    }
    try {
      return [200, await this.#route(method, path, params)];
    } catch (error) {
      if (error instanceof StripeFakeError) return errorAnswer(error);
      throw error;
    }
  }

  async #route(method: string, path: string, params: Record<string, FormValue>): Promise<unknown> {
    const now = this.#seconds();
    const one = <T>(map: Map<string, T>, kind: string, id: string): T => {
      const found = map.get(id);
      if (!found) {
        throw new StripeFakeError(
          404,
          'invalid_request_error',
          `No such ${kind}: '${id}'`,
          'resource_missing',
          'id',
        );
      }
      return found;
    };
    const byId = (pattern: string) => new RegExp(`^/v1/${pattern}/([A-Za-z0-9_]+)$`).exec(path)?.[1];

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session = createSession(params, {
        nowSeconds: now,
        payBaseUrl: this.#url,
        price: (id) => this.#prices.get(id),
        customerExists: (id) => this.#customers.has(id),
      });
      this.#sessions.set(session.id, session);
      if (session.mode === 'subscription') {
        this.#sessionSubscriptionMetadata.set(session.id, subscriptionMetadataOf(params));
        const items = params['line_items'] as Record<string, FormValue>[];
        this.#sessionPrice.set(session.id, String(items[0]!['price']));
      }
      return session;
    }
    const sessionId = byId('checkout/sessions');
    if (method === 'GET' && sessionId) return one(this.#sessions, 'checkout.session', sessionId);
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      refuseUnknownParams(params, 'checkout.sessions.list');
      const matches = [...this.#sessions.values()].filter(
        (session) =>
          (params['customer'] === undefined || session.customer === params['customer']) &&
          (params['status'] === undefined || session.status === params['status']) &&
          (params['subscription'] === undefined || session.subscription === params['subscription']),
      );
      return listPage(matches, params, '/v1/checkout/sessions');
    }
    const expireId = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)\/expire$/.exec(path)?.[1];
    if (method === 'POST' && expireId) {
      refuseUnknownParams(params, 'checkout.sessions.expire');
      const session = one(this.#sessions, 'checkout.session', expireId);
      if (session.status !== 'open') {
        throw new StripeFakeError(
          400,
          'invalid_request_error',
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          'checkout_session_not_open',
        );
      }
      // An expired session's page no longer takes a payment, and it has no URL any more.
      session.status = 'expired';
      session.url = null;
      await this.#emit('checkout.session.expired', session);
      return session;
    }

    if (method === 'POST' && path === '/v1/customers') {
      refuseUnknownParams(params, 'customers.create');
      const customer = customerObject({
        email: typeof params['email'] === 'string' ? params['email'] : null,
        name: typeof params['name'] === 'string' ? params['name'] : null,
        metadata: stringRecord(params['metadata']),
        created: now,
      });
      this.#customers.set(customer.id, customer);
      return customer;
    }
    const customerId = byId('customers');
    if (method === 'GET' && customerId) return one(this.#customers, 'customer', customerId);

    if (method === 'POST' && path === '/v1/prices') {
      refuseUnknownParams(params, 'prices.create');
      const recurring = params['recurring'];
      const interval =
        recurring && typeof recurring === 'object' && !Array.isArray(recurring)
          ? recurring['interval']
          : undefined;
      const productData = params['product_data'];
      const name =
        productData && typeof productData === 'object' && !Array.isArray(productData)
          ? String(productData['name'] ?? 'Product')
          : 'Product';
      if (typeof params['currency'] !== 'string') throw missingParam('currency');
      return this.createPrice({
        unitAmount: Number(params['unit_amount'] ?? 0),
        currency: params['currency'],
        interval: interval === 'month' ? 'month' : null,
        name,
      });
    }
    const priceId = byId('prices');
    if (method === 'GET' && priceId) return one(this.#prices, 'price', priceId);

    if (method === 'GET' && path === '/v1/subscriptions') {
      refuseUnknownParams(params, 'subscriptions.list');
      const status = params['status'];
      const matches = [...this.#subscriptions.values()].filter(
        (subscription) =>
          // Without a status Stripe lists every subscription but the canceled ones; `all` lists them all.
          (status === undefined
            ? subscription.status !== 'canceled'
            : status === 'all' || subscription.status === status) &&
          (params['customer'] === undefined || subscription.customer === params['customer']) &&
          (params['price'] === undefined ||
            subscription.items.data.some((item) => item.price.id === params['price'])),
      );
      return listPage(matches, params, '/v1/subscriptions');
    }
    const subscriptionId = byId('subscriptions');
    if (subscriptionId && method === 'GET') return one(this.#subscriptions, 'subscription', subscriptionId);
    if (subscriptionId && method === 'POST') {
      refuseUnknownParams(params, 'subscriptions.update');
      const subscription = one(this.#subscriptions, 'subscription', subscriptionId);
      if (params['cancel_at_period_end'] !== undefined) {
        const cancel = params['cancel_at_period_end'] === 'true';
        subscription.cancel_at_period_end = cancel;
        subscription.cancel_at = cancel ? subscription.items.data[0]!.current_period_end : null;
        subscription.canceled_at = cancel ? now : null;
      }
      subscription.metadata = { ...subscription.metadata, ...stringRecord(params['metadata']) };
      await this.#emit('customer.subscription.updated', subscription);
      return subscription;
    }

    if (subscriptionId && method === 'DELETE') {
      refuseUnknownParams(params, 'subscriptions.cancel');
      const subscription = one(this.#subscriptions, 'subscription', subscriptionId);
      if (subscription.status === 'canceled') {
        throw new StripeFakeError(
          400,
          'invalid_request_error',
          `The subscription ${subscription.id} has already been canceled.`,
          'resource_already_canceled',
        );
      }
      subscription.status = 'canceled';
      subscription.canceled_at = now;
      subscription.ended_at = now;
      subscription.cancellation_details = {
        comment: null,
        feedback: null,
        feedback_option: null,
        reason: 'cancellation_requested',
      };
      await this.#emit('customer.subscription.deleted', subscription);
      return subscription;
    }

    const paymentIntentId = byId('payment_intents');
    if (paymentIntentId && method === 'GET')
      return one(this.#paymentIntents, 'payment_intent', paymentIntentId);

    const invoiceId = byId('invoices');
    if (invoiceId && method === 'GET') return one(this.#invoices, 'invoice', invoiceId);

    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      refuseUnknownParams(params, 'billing_portal.sessions.create');
      const customer = typeof params['customer'] === 'string' ? params['customer'] : undefined;
      if (!customer) throw missingParam('customer');
      one(this.#customers, 'customer', customer);
      const session = portalSessionObject({
        customer,
        returnUrl: typeof params['return_url'] === 'string' ? params['return_url'] : null,
        created: now,
        baseUrl: this.#url,
      });
      this.#portals.set(session.id, session);
      return session;
    }

    throw new StripeFakeError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). This stand-in serves what the gateway calls only.`,
    );
  }
}

function missingParam(param: string): StripeFakeError {
  return new StripeFakeError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );
}

function stringRecord(value: FormValue | undefined): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );
}

function errorAnswer(error: StripeFakeError): [number, unknown] {
  return [error.status, error.body()];
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const html = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function payPage(id: string, session: FakeCheckoutSession | undefined): string {
  if (!session) return `<!doctype html><title>Not found</title><p>No checkout session ${html(id)}.</p>`;
  const amount = `${((session.amount_total ?? 0) / 100).toFixed(2)} ${html((session.currency ?? '').toUpperCase())}`;
  const what = session.mode === 'subscription' ? `${amount} a month (subscription)` : amount;
  const form =
    session.status === 'open'
      ? `<form method="post" action="/c/pay/${html(id)}">
<label>Email <input type="email" name="email" value="${html(session.customer_email ?? 'buyer@example.com')}"></label>
<button type="submit">Pay ${what}</button>
</form>`
      : `<p>This session is ${html(session.status ?? '')}.</p>`;
  return `<!doctype html>
<meta charset="utf-8"><title>Stripe stand-in: checkout ${html(id)}</title>
<h1>Stripe stand-in (not Stripe)</h1>
<p>This is the local stand-in for Stripe's hosted checkout. Nothing is charged here.</p>
<p>Session ${html(id)}: ${what}, ${html(session.payment_status)}.</p>
${form}
`;
}

function portalPage(session: Stripe.BillingPortal.Session, subscriptions: Stripe.Subscription[]): string {
  const rows = subscriptions
    .map((s) => {
      const item = s.items.data[0]!;
      const end = new Date(item.current_period_end * 1000).toISOString();
      const action =
        s.status === 'canceled' || s.cancel_at_period_end
          ? `<p>${s.status === 'canceled' ? 'Ended' : `Cancels at the period's end, ${html(end)}`}.</p>`
          : `<form method="post" action="/p/session/${html(session.id)}/cancel"><input type="hidden" name="subscription" value="${html(s.id)}"><button type="submit">Cancel plan</button></form>`;
      return `<li>Subscription ${html(s.id)}: ${html(s.status)}, current period to ${html(end)}.${action}</li>`;
    })
    .join('\n');
  return `<!doctype html>
<meta charset="utf-8"><title>Stripe stand-in: billing portal</title>
<h1>Billing portal (Stripe stand-in)</h1>
<ul>
${rows}
</ul>
<p><a href="${html(session.return_url ?? '/')}">Return to the service</a></p>
`;
}
