import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSession, type FakeCheckoutSession, StripeFakeError } from './checkout-session.js';
import { type FormValue, parseStripeForm } from './form-body.js';

/** One request the stand-in received, for tests to inspect. */
export interface RecordedStripeCall {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, FormValue>;
  /** True when the answer was a stored idempotent result (`Idempotent-Replayed: true`). */
  replayed: boolean;
  status: number;
}

interface StoredResult {
  paramsHash: string;
  status: number;
  body: unknown;
}

/**
 * A stand-in for Stripe's API, for the sandbox, the demo and tests (we cannot run Stripe here). It
 * answers what the gateway calls, in Stripe's documented shapes, over real HTTP, so the official
 * `stripe` client talks to it unchanged (`host`, `port`, `protocol` options; `STRIPE_API_BASE`):
 *
 * - `POST /v1/checkout/sessions`: a new open, unpaid Checkout Session (see checkout-session.ts);
 * - `GET /v1/checkout/sessions/{id}`: a session as stored;
 * - `GET /c/pay/{id}`: the "hosted checkout page": a short HTML note saying that this is the stand-in
 *   and how to simulate the payment;
 * - every request needs `Authorization: Bearer sk_test_…` (401 otherwise); a POST with an
 *   `Idempotency-Key` seen before gets the first answer again, with `Idempotent-Replayed: true`, or
 *   400 `idempotency_error` when its parameters differ, as Stripe does.
 *
 * `dropNextResponses(n)` makes it do the work of the next n requests and then close the connection
 * without answering: the "request reached Stripe, the answer was lost" case that idempotency keys exist
 * for. It lives in pipeline/devnet/ rather than under test/ because `make demo` starts it too, and
 * shipped code may not import test support (the layer rules).
 */
export class StripeFake {
  readonly calls: RecordedStripeCall[] = [];
  readonly #sessions = new Map<string, FakeCheckoutSession>();
  readonly #idempotent = new Map<string, StoredResult>();
  readonly #now: () => number;
  #server: Server | undefined;
  #url = '';
  #drop = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** The base URL to give the client (`STRIPE_API_BASE`). */
  get url(): string {
    return this.#url;
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

  dropNextResponses(count: number): void {
    this.#drop = count;
  }

  /** Marks a session paid by `email`, as Stripe does when the buyer completes the page. */
  completeSession(id: string, email: string): FakeCheckoutSession {
    const session = this.#sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer_details = { email, name: null };
    session.payment_intent = `pi_test_${randomBytes(12).toString('hex')}`;
    return session;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://stripe.fake').pathname;
    const params = method === 'POST' ? parseStripeForm(body) : {};
    const idempotencyKey = header(request, 'idempotency-key');
    const call: RecordedStripeCall = { method, path, idempotencyKey, params, replayed: false, status: 0 };
    this.calls.push(call);

    const page = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && page) {
      call.status = this.#sessions.has(page[1]!) ? 200 : 404;
      response.writeHead(call.status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(payPage(page[1]!, this.#sessions.get(page[1]!)));
      return;
    }

    let status: number;
    let answer: unknown;
    let replayed = false;
    const stored = idempotencyKey && method === 'POST' ? this.#idempotent.get(idempotencyKey) : undefined;
    if (stored) {
      if (stored.paramsHash !== hashOf(params)) {
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
      [status, answer] = this.#answer(request, method, path, params);
      // Stripe stores a result once the endpoint ran (not for auth failures or unknown URLs).
      if (idempotencyKey && method === 'POST' && status !== 401 && status !== 404) {
        this.#idempotent.set(idempotencyKey, { paramsHash: hashOf(params), status, body: answer });
      }
    }
    call.status = status;
    call.replayed = replayed;
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

  #answer(
    request: IncomingMessage,
    method: string,
    path: string,
    params: Record<string, FormValue>,
  ): [number, unknown] {
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
      if (method === 'POST' && path === '/v1/checkout/sessions') {
        const session = createSession(params, {
          nowSeconds: Math.floor(this.#now() / 1000),
          payBaseUrl: this.#url,
        });
        this.#sessions.set(session.id, session);
        return [200, session];
      }
      const one = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/.exec(path);
      if (method === 'GET' && one) {
        const session = this.#sessions.get(one[1]!);
        if (!session) {
          throw new StripeFakeError(
            404,
            'invalid_request_error',
            `No such checkout.session: '${one[1]}'`,
            'resource_missing',
            'session',
          );
        }
        return [200, session];
      }
      throw new StripeFakeError(
        404,
        'invalid_request_error',
        `Unrecognized request URL (${method}: ${path}). This stand-in serves checkout sessions only.`,
      );
    } catch (error) {
      if (error instanceof StripeFakeError) return errorAnswer(error);
      throw error;
    }
  }
}

function errorAnswer(error: StripeFakeError): [number, unknown] {
  return [error.status, error.body()];
}

function hashOf(params: Record<string, FormValue>): string {
  return createHash('sha256').update(JSON.stringify(params)).digest('hex');
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

function payPage(id: string, session: FakeCheckoutSession | undefined): string {
  const html = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  if (!session) return `<!doctype html><title>Not found</title><p>No checkout session ${html(id)}.</p>`;
  const order = session.metadata['order_id'] ?? session.client_reference_id ?? '';
  return `<!doctype html>
<meta charset="utf-8"><title>Stripe stand-in: checkout ${html(id)}</title>
<h1>Stripe stand-in (not Stripe)</h1>
<p>This is the local stand-in for Stripe's hosted checkout. Nothing is charged here.</p>
<p>Session ${html(id)}: ${session.amount_total} ${html(session.currency)} (minor units), ${html(session.payment_status)}.</p>
<p>To simulate the payment, run:</p>
<pre>npm run -s sbm-gateway -- stripe simulate-payment ${html(order)}</pre>
`;
}
