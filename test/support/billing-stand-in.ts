/**
 * The plan's billing over real parts, without the whole gateway: the Stripe stand-in over HTTP, a
 * real SQLite gateway state, the official client pinned as the service pins it, and a webhook
 * endpoint that does what the gateway's route does (verify the signature, then `handleBillingEvent`).
 * One clock drives the stand-in and the service, so a test can make time pass for both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import {
  type BillingDeps,
  type BillingNotice,
  billingStripeClient,
  handleBillingEvent,
} from '../../gateway/account/stripe-billing.js';
import type { StripeApiBase } from '../../gateway/orders/order-config.js';
import type { GatewayState } from '../../gateway/state/gateway-state.js';
import { openGatewayState } from '../../gateway/state/open-gateway-state.js';
import { StripeFake } from '../../pipeline/devnet/stripe/stripe-fake.js';

const SECRET = 'whsec_billing_stand_in';

export interface BillingStandIn {
  fake: StripeFake;
  /** The client the service uses (pinned version), pointed at the stand-in. */
  stripe: Stripe;
  apiBase: StripeApiBase;
  state: GatewayState;
  deps: BillingDeps;
  clock: { nowMs: number };
  /** What the service told the operator. */
  notices: BillingNotice[];
  /** Webhook deliveries the service could not handle (the error text), in order. */
  webhookFailures: string[];
  /** Points the stand-in's events at the service's webhook again (after a test pointed them elsewhere). */
  restoreWebhook(): void;
  close(): Promise<void>;
}

export async function startBillingStandIn(
  nowMs: number = Date.UTC(2026, 10, 25, 12),
): Promise<BillingStandIn> {
  const clock = { nowMs };
  const fake = new StripeFake({ now: () => clock.nowMs });
  await fake.listen();
  const apiBase: StripeApiBase = {
    protocol: 'http',
    host: '127.0.0.1',
    port: Number(new URL(fake.url).port),
    url: fake.url,
  };
  const stripe = billingStripeClient('sk_test_billing_stand_in', apiBase);
  const dir = await mkdtemp(join(tmpdir(), 'sbm-billing-'));
  const state = await openGatewayState(`sqlite:${join(dir, 'gateway.sqlite')}`);
  const plan = fake.createPrice({ unitAmount: 9900, currency: 'usd', interval: 'month', name: 'API plan' });
  const notices: BillingNotice[] = [];
  const deps: BillingDeps = {
    state,
    now: () => new Date(clock.nowMs),
    stripe,
    priceId: plan.id,
    baseUrl: 'https://sbm.example',
    notice: (entry) => notices.push(entry),
  };
  const webhookFailures: string[] = [];
  const webhook = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        try {
          const event = Stripe.webhooks.constructEvent(
            Buffer.concat(chunks),
            String(request.headers['stripe-signature']),
            SECRET,
            undefined,
            undefined,
            clock.nowMs,
          );
          await handleBillingEvent(deps, event);
          response.writeHead(200).end('{}');
        } catch (error) {
          webhookFailures.push(String(error));
          response.writeHead(500).end();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/`;
  fake.setWebhook(webhookUrl, SECRET);
  return {
    fake,
    stripe,
    apiBase,
    state,
    deps,
    clock,
    notices,
    webhookFailures,
    restoreWebhook: () => fake.setWebhook(webhookUrl, SECRET),
    async close() {
      await new Promise<void>((resolve) => webhook.close(() => resolve()));
      await fake.close();
      await state.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
