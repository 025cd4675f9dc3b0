import type Stripe from 'stripe';
import { newStripeId } from './billing-objects.js';

/**
 * The PaymentIntent a Checkout Session in payment mode makes when the buyer pays, as the pinned API
 * version types it (`Stripe.PaymentIntent`). Since API version 2022-08-01 Stripe creates it when the
 * session is confirmed, not when the session is made (changelog "Deferred PaymentIntent creation in
 * Checkout Session payment mode"), so its `created` is the time of the payment: `orders reconcile`
 * reads it as the order's `paid_at`. Succeeded: the stand-in's payments all go through.
 */
export function paymentIntentObject(params: {
  amount: number;
  currency: string;
  created: number;
  email: string;
}): Stripe.PaymentIntent {
  return {
    id: newStripeId('pi'),
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: params.amount,
    amount_capturable: 0,
    amount_received: params.amount,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: null,
    confirmation_method: 'automatic',
    created: params.created,
    currency: params.currency,
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: params.email,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_group: null,
  };
}
