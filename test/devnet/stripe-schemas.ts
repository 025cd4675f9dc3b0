/**
 * JSON Schemas of the pinned Stripe API version's objects and request parameters, generated from the
 * `stripe` package's own types (test/devnet/stripe-wire-types.ts) by ts-json-schema-generator, and
 * validators over them (Ajv). A field the type declares without `?` is required, and it accepts
 * `null` only when the type says `X | null`; no field the type does not declare is allowed.
 *
 * Generating walks most of the stripe type tree (about 2,400 definitions) and takes 20–30 s on this
 * machine, so the schemas are cached under node_modules/.cache, keyed by the stripe package's version
 * and the text of the wire-types file: a new stripe version (or a new type asked for) regenerates them.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { createGenerator, createProgram, DEFAULT_CONFIG } from 'ts-json-schema-generator';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const typesFile = join(here, 'stripe-wire-types.ts');

/** The definitions the tests validate against, by the name the generator gives them. */
export const OBJECT_DEFINITIONS = {
  'checkout.session': 'Checkout.Sessions.Session',
  customer: 'Customers.Customer',
  price: 'Prices.Price',
  subscription: 'Subscriptions.Subscription',
  invoice: 'Invoices.Invoice',
  'billing_portal.session': 'BillingPortal.Sessions.Session',
  /** Checkout Sessions listed: an account's open ones, and reconcile's completed ones. */
  list: 'lib.ApiList<Checkout.Sessions.Session>',
} as const;

/** The other list the service asks for (reconcile): the API plan's subscriptions, by its path. */
export const SUBSCRIPTION_LIST_DEFINITION = 'lib.ApiList<Subscriptions.Subscription>';

export const EVENT_DEFINITIONS = {
  'checkout.session.completed': 'Events.CheckoutSessionCompletedEvent',
  'checkout.session.expired': 'Events.CheckoutSessionExpiredEvent',
  'customer.subscription.created': 'Events.CustomerSubscriptionCreatedEvent',
  'customer.subscription.updated': 'Events.CustomerSubscriptionUpdatedEvent',
  'customer.subscription.deleted': 'Events.CustomerSubscriptionDeletedEvent',
  'invoice.paid': 'Events.InvoicePaidEvent',
  'invoice.payment_failed': 'Events.InvoicePaymentFailedEvent',
} as const;

export const PARAMS_DEFINITIONS = {
  'checkout.sessions.create': 'Checkout.Sessions.Checkout.SessionCreateParams',
  'checkout.sessions.expire': 'Checkout.Sessions.Checkout.SessionExpireParams',
  'checkout.sessions.list': 'Checkout.Sessions.Checkout.SessionListParams',
  'subscriptions.cancel': 'Subscriptions.SubscriptionCancelParams',
  'customers.create': 'Customers.CustomerCreateParams',
  'prices.create': 'Prices.PriceCreateParams',
  'subscriptions.update': 'Subscriptions.SubscriptionUpdateParams',
  'subscriptions.list': 'Subscriptions.SubscriptionListParams',
  'billing_portal.sessions.create': 'BillingPortal.Sessions.BillingPortal.SessionCreateParams',
} as const;

/** What Stripe's error answer carries under `error` (`{"error": {type, message, code, param, …}}`). */
export const ERROR_DEFINITION = 'Types.StripeRawError';

type JsonSchema = { definitions: Record<string, unknown> } & Record<string, unknown>;

export interface StripeSchemas {
  stripeVersion: string;
  /** Where the schemas came from this run, and how long that took. */
  source: 'generated' | 'cache';
  millis: number;
  /** Checks an answer (exactly as sent: no coercion) against a definition; the errors, empty when valid. */
  answerErrors(definition: string, value: unknown): string[];
  /** Checks request parameters parsed from Stripe's form encoding, where every value travels as a string. */
  paramsErrors(definition: string, value: unknown): string[];
}

export async function loadStripeSchemas(): Promise<StripeSchemas> {
  const started = Date.now();
  const stripeVersion = await packageVersion('stripe');
  // The key also covers the generator and this file, so a change to how the schemas are made
  // regenerates them.
  const inputs = await Promise.all([
    packageVersion('ts-json-schema-generator'),
    readFile(typesFile, 'utf8'),
    readFile(fileURLToPath(import.meta.url), 'utf8'),
  ]);
  const key = createHash('sha256')
    .update([stripeVersion, ...inputs].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(
    root,
    'node_modules',
    '.cache',
    'sbm-stripe-schemas',
    `stripe-${stripeVersion}-${key}.json`,
  );
  let schema: JsonSchema;
  let source: StripeSchemas['source'];
  try {
    schema = JSON.parse(await readFile(cacheFile, 'utf8')) as JsonSchema;
    source = 'cache';
  } catch {
    schema = generate();
    source = 'generated';
    await mkdir(dirname(cacheFile), { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(schema));
    await rename(temporary, cacheFile);
  }
  const strict = validators(schema, false);
  const forms = validators(schema, true);
  return {
    stripeVersion,
    source,
    millis: Date.now() - started,
    answerErrors: (definition, value) => strict(definition, value),
    // Coercion rewrites the value it checks ("4900" → 4900): give it a copy.
    paramsErrors: (definition, value) => forms(definition, structuredClone(value)),
  };
}

async function packageVersion(name: string): Promise<string> {
  const text = await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function generate(): JsonSchema {
  const config = {
    ...DEFAULT_CONFIG,
    path: typesFile,
    tsconfig: join(root, 'tsconfig.json'),
    skipTypeCheck: true,
    expose: 'export' as const,
    topRef: false,
    jsDoc: 'none' as const,
    additionalProperties: false,
  };
  const program = createProgram(config);
  // The generator names a definition by its type's name without the file it is in, and stripe has
  // types of one name in several files (`Card` in Cards.d.ts and in Issuing/Cards.d.ts): keep the
  // file in the name (`Issuing.Cards.Card`), so the names are unique.
  const checker = program.getTypeChecker();
  const qualified = checker.getFullyQualifiedName.bind(checker);
  checker.getFullyQualifiedName = (symbol) =>
    qualified(symbol).replace(
      /^"[^"]*\/stripe\/esm\/(?:resources\/)?([^"]*)"\./,
      (_all, file: string) => `${file.replace(/\//g, '.')}.`,
    );
  const schema = createGenerator({ ...config, tsProgram: program }).createSchema(undefined) as JsonSchema;
  // The client's `Decimal` class is how it hands decimal fields to callers; on the wire they are
  // strings ("9900", "1.5"), which is what an answer carries.
  schema.definitions['Decimal.Decimal'] = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' };
  // The types join each enum's values with `OtherString` (any string) so that callers are ready for
  // values a later version adds. The stand-in speaks one version: its enums are closed to that
  // version's values (`ui_mode: "hosted"` must fail), so `OtherString` matches nothing here.
  schema.definitions['shared.OtherString'] = { not: {} };
  return schema;
}

function validators(schema: JsonSchema, coerce: boolean): (definition: string, value: unknown) => string[] {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: coerce ? 'array' : false });
  ajv.addSchema(schema, 'stripe');
  const compiled = new Map<string, ValidateFunction>();
  return (definition, value) => {
    if (!(definition in schema.definitions)) throw new Error(`no schema definition ${definition}`);
    let validate = compiled.get(definition);
    if (!validate) {
      validate = ajv.compile({ $ref: `stripe#/definitions/${encodeURIComponent(definition)}` });
      compiled.set(definition, validate);
    }
    return validate(value) ? [] : describe(validate.errors ?? []);
  };
}

/** Ajv's errors in a line each: where, what (an unknown field is named). */
function describe(errors: ErrorObject[]): string[] {
  return errors.map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params['additionalProperty'])})` : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
}
