/**
 * The `stripe` package's types (its pinned API version) under plain names, for
 * ts-json-schema-generator to turn into JSON Schemas (test/devnet/stripe-schemas.ts). Nothing runs here.
 */
import type Stripe from 'stripe';

export type CheckoutSession = Stripe.Checkout.Session;
export type Customer = Stripe.Customer;
export type Price = Stripe.Price;
export type Subscription = Stripe.Subscription;
export type Invoice = Stripe.Invoice;
export type PortalSession = Stripe.BillingPortal.Session;

export type CheckoutSessionCompletedEvent = Stripe.CheckoutSessionCompletedEvent;
export type CheckoutSessionExpiredEvent = Stripe.CheckoutSessionExpiredEvent;
export type CustomerSubscriptionCreatedEvent = Stripe.CustomerSubscriptionCreatedEvent;
export type CustomerSubscriptionUpdatedEvent = Stripe.CustomerSubscriptionUpdatedEvent;
export type CustomerSubscriptionDeletedEvent = Stripe.CustomerSubscriptionDeletedEvent;
export type InvoicePaidEvent = Stripe.InvoicePaidEvent;
export type InvoicePaymentFailedEvent = Stripe.InvoicePaymentFailedEvent;

export type CheckoutSessionCreateParams = Stripe.Checkout.SessionCreateParams;
export type CustomerCreateParams = Stripe.CustomerCreateParams;
export type PriceCreateParams = Stripe.PriceCreateParams;
export type SubscriptionUpdateParams = Stripe.SubscriptionUpdateParams;
export type PortalSessionCreateParams = Stripe.BillingPortal.SessionCreateParams;
export type CheckoutSessionExpireParams = Stripe.Checkout.SessionExpireParams;
export type CheckoutSessionListParams = Stripe.Checkout.SessionListParams;
export type SubscriptionCancelParams = Stripe.SubscriptionCancelParams;
export type CheckoutSessionList = Stripe.ApiList<Stripe.Checkout.Session>;
export type SubscriptionListParams = Stripe.SubscriptionListParams;
export type SubscriptionList = Stripe.ApiList<Stripe.Subscription>;

/** The body of Stripe's error answer, `{"error": StripeRawError}`. */
export type StripeRawError = Stripe.StripeRawError;
