import type { MetadataBodyJson } from './metadata-json.js';

/** Storage items spec 473 no longer declares. */
export const RETIRED_STORAGE_ITEMS = ['Alpha', 'TotalHotkeyShares', 'AlphaMapLastKey'] as const;

/** `LimitOrders` pallet index in the runtime (`runtime/src/lib.rs`: `LimitOrders: pallet_limit_orders = 32`). */
export const LIMIT_ORDERS_PALLET_INDEX = 32;

interface TypeDefJson {
  path: string[];
  params: unknown[];
  def: Record<string, unknown>;
  docs: string[];
}

interface LookupTypeJson {
  id: number;
  type: TypeDefJson;
}

interface FieldJson {
  name: string | null;
  type: number;
  typeName: string | null;
  docs: string[];
}

interface VariantJson {
  name: string;
  fields: FieldJson[];
  index: number;
  docs: string[];
}

type PalletJsonFull = MetadataBodyJson['pallets'][number] & {
  events: { type: number } | null;
  index: number;
};

function field(name: string | null, type: number, typeName: string | null): FieldJson {
  return { name, type, typeName, docs: [] };
}

function variant(name: string, index: number, fields: FieldJson[] = [], docs: string[] = []): VariantJson {
  return { name, fields, index, docs };
}

function primitiveId(types: LookupTypeJson[], name: string): number {
  const found = types.find((t) => (t.type.def as { primitive?: string }).primitive === name);
  if (!found) throw new Error(`metadata: primitive ${name} not found`);
  return found.id;
}

function pathId(types: LookupTypeJson[], path: string): number {
  const found = types.find((t) => t.type.path.join('::') === path);
  if (!found) throw new Error(`metadata: type ${path} not found`);
  return found.id;
}

/**
 * The sandbox's stand-in for the runtime mainnet runs since October 2026 (opentensor/subtensor, later
 * RaoFoundation/subtensor, tag v473 = commit f87cada6; from its release source, "Mainnet since
 * October 2026"). No metadata blob of it is available: it is the spec-425 stand-in (`spec-425-runtime.ts`)
 * changed in memory, after that one's additions:
 *
 * - `SubtensorModule.Alpha`, `TotalHotkeyShares` and `AlphaMapLastKey` are gone (retired by
 *   `migrations/migrate_alpha_v2.rs`: they survive only as storage aliases until the migration drains them);
 * - the event `SubtensorModule.NetworkRegistrationCancelled { coldkey, hotkey, lock_id: u32, error }` at
 *   variant index 153. Its `error` field is typed `sp_runtime::DispatchError` (the lookup type every
 *   `ExtrinsicFailed` uses): the cancellation reports why the queued registration failed. The sandbox never
 *   emits it;
 * - the pallet `LimitOrders` (`pallets/limit-orders/src/lib.rs`) at index 32, as in the spec-475 metadata:
 *   its calls (`execute_orders` 0, `execute_batched_orders` 1, `cancel_order` 2, `set_pallet_status` 3) with
 *   the types they take (`SignedOrder`, `VersionedOrder::V1(Order)`, `OrderType`), its events
 *   (`OrderExecuted` 0, `OrderSkipped` 1, `OrderCancelled` 2, `GroupExecutionSummary` 3,
 *   `LimitOrdersPalletStatusChanged` 4) and errors, and its variants in the outer `RuntimeCall`,
 *   `RuntimeEvent` and `RuntimeError` enums. It has no storage items here (the sandbox serves none);
 * - `System.Version` spec_version 473 (set by the caller, as for spec 425).
 *
 * Not added: `StakeMoveCooldownUntil`, `NetworkRegistrationEscrow` and spec 473's other new storage items.
 */
export function extendToSpec473(body: MetadataBodyJson): void {
  const lookup = body.lookup as { types: LookupTypeJson[] };
  const types = lookup.types;
  const subtensor = body.pallets.find((p) => p.name === 'SubtensorModule') as PalletJsonFull | undefined;
  if (!subtensor?.storage || !subtensor.events) throw new Error('metadata: SubtensorModule not found');
  subtensor.storage.items = subtensor.storage.items.filter(
    (item) => !(RETIRED_STORAGE_ITEMS as readonly string[]).includes(item.name),
  );

  const account = pathId(types, 'sp_core::crypto::AccountId32');
  const dispatchError = pathId(types, 'sp_runtime::DispatchError');
  const h256 = pathId(types, 'primitive_types::H256');
  const perbill = pathId(types, 'sp_arithmetic::per_things::Perbill');
  const multiSignature = pathId(types, 'sp_runtime::MultiSignature');
  const u16 = primitiveId(types, 'U16');
  const u32 = primitiveId(types, 'U32');
  const u64 = primitiveId(types, 'U64');
  const bool = primitiveId(types, 'Bool');

  const subtensorEvents = types[subtensor.events.type]?.type.def as { variant?: { variants: VariantJson[] } };
  const events = subtensorEvents.variant?.variants;
  if (!events) throw new Error('metadata: SubtensorModule events not found');
  if (!events.some((v) => v.name === 'NetworkRegistrationCancelled')) {
    events.push(
      variant(
        'NetworkRegistrationCancelled',
        153,
        [
          field('coldkey', account, 'T::AccountId'),
          field('hotkey', account, 'T::AccountId'),
          field('lock_id', u32, 'u32'),
          field('error', dispatchError, 'DispatchError'),
        ],
        ['A queued network registration was cancelled; its lock is released.'],
      ),
    );
  }

  const add = (type: TypeDefJson): number => {
    const id = types.length;
    types.push({ id, type });
    return id;
  };
  const composite = (path: string[], fields: FieldJson[], params: unknown[] = []) =>
    add({ path, params, def: { composite: { fields } }, docs: [] });
  const enumeration = (path: string[], variants: VariantJson[], params: unknown[] = []) =>
    add({ path, params, def: { variant: { variants } }, docs: [] });
  const option = (inner: number) =>
    add({
      path: ['Option'],
      params: [{ name: 'T', type: inner }],
      def: { variant: { variants: [variant('None', 0), variant('Some', 1, [field(null, inner, null)])] } },
      docs: [],
    });
  const sequence = (inner: number) =>
    add({ path: [], params: [], def: { sequence: { type: inner } }, docs: [] });
  const boundedVec = (inner: number) =>
    composite(
      ['bounded_collections', 'bounded_vec', 'BoundedVec'],
      [field(null, sequence(inner), 'Vec<T>')],
      [
        { name: 'T', type: inner },
        { name: 'S', type: null },
      ],
    );
  const generic = [{ name: 'T', type: null }];

  const orderSide = enumeration(
    ['pallet_limit_orders', 'OrderSide'],
    [variant('Buy', 0), variant('Sell', 1)],
  );
  const orderType = enumeration(
    ['pallet_limit_orders', 'OrderType'],
    [variant('LimitBuy', 0), variant('TakeProfit', 1), variant('StopLoss', 2)],
  );
  const order = composite(
    ['pallet_limit_orders', 'Order'],
    [
      field('signer', account, 'AccountId'),
      field('hotkey', account, 'AccountId'),
      field('netuid', u16, 'NetUid'),
      field('order_type', orderType, 'OrderType'),
      field('amount', u64, 'u64'),
      field('limit_price', u64, 'u64'),
      field('expiry', u64, 'u64'),
      field('fee_rate', perbill, 'Perbill'),
      field('fee_recipient', account, 'AccountId'),
      field('relayer', option(boundedVec(account)), 'Option<BoundedVec<AccountId, ConstU32<10>>>'),
      field('max_slippage', option(perbill), 'Option<Perbill>'),
      field('chain_id', u64, 'u64'),
      field('partial_fills_enabled', bool, 'bool'),
    ],
    [{ name: 'AccountId', type: account }],
  );
  const versionedOrder = enumeration(
    ['pallet_limit_orders', 'VersionedOrder'],
    [variant('V1', 0, [field(null, order, 'Order<AccountId>')])],
    [{ name: 'AccountId', type: account }],
  );
  const signedOrder = composite(
    ['pallet_limit_orders', 'SignedOrder'],
    [
      field('order', versionedOrder, 'VersionedOrder<AccountId>'),
      field('signature', multiSignature, 'MultiSignature'),
      field('partial_fill', option(u64), 'Option<u64>'),
    ],
    [{ name: 'AccountId', type: account }],
  );
  const orders = boundedVec(signedOrder);
  const ordersName = 'BoundedVec<SignedOrder<T::AccountId>, T::MaxOrdersPerBatch>';
  const calls = enumeration(
    ['pallet_limit_orders', 'pallet', 'Call'],
    [
      variant(
        'execute_orders',
        0,
        [field('orders', orders, ordersName), field('should_fail', bool, 'bool')],
        ['Execute a batch of signed limit orders, one pool swap each. Admin-gated.'],
      ),
      variant(
        'execute_batched_orders',
        1,
        [field('netuid', u16, 'NetUid'), field('orders', orders, ordersName)],
        [
          'Execute a batch of signed limit orders for a single subnet using aggregated (netted) pool',
          'interaction: one pool swap for the residual, outputs distributed pro rata.',
        ],
      ),
      variant(
        'cancel_order',
        2,
        [field('order', versionedOrder, 'VersionedOrder<T::AccountId>')],
        ['Register a cancellation intent for an order.'],
      ),
      variant('set_pallet_status', 3, [field('enabled', bool, 'bool')], ['Enable or disable the pallet.']),
    ],
    generic,
  );
  const eventsType = enumeration(
    ['pallet_limit_orders', 'pallet', 'Event'],
    [
      variant(
        'OrderExecuted',
        0,
        [
          field('order_id', h256, 'H256'),
          field('signer', account, 'T::AccountId'),
          field('netuid', u16, 'NetUid'),
          field('order_type', orderType, 'OrderType'),
          field('amount_in', u64, 'u64'),
          field('amount_out', u64, 'u64'),
        ],
        ['A limit order was successfully executed.'],
      ),
      variant(
        'OrderSkipped',
        1,
        [field('order_id', h256, 'H256'), field('reason', dispatchError, 'sp_runtime::DispatchError')],
        ['An order was skipped during execution.'],
      ),
      variant(
        'OrderCancelled',
        2,
        [field('order_id', h256, 'H256'), field('signer', account, 'T::AccountId')],
        ['A user registered a cancellation intent for their order.'],
      ),
      variant(
        'GroupExecutionSummary',
        3,
        [
          field('netuid', u16, 'NetUid'),
          field('net_side', orderSide, 'OrderSide'),
          field('net_amount', u64, 'u64'),
          field('actual_out', u64, 'u64'),
          field('executed_count', u32, 'u32'),
        ],
        ['Summary emitted once per `execute_batched_orders` call.'],
      ),
      variant(
        'LimitOrdersPalletStatusChanged',
        4,
        [field('enabled', bool, 'bool')],
        ['Root has either enabled(true) or disabled(false) the pallet'],
      ),
    ],
    generic,
  );
  const errorNames = [
    'InvalidSignature',
    'OrderAlreadyProcessed',
    'OrderCancelled',
    'OrderExpired',
    'PriceConditionNotMet',
    'Unauthorized',
    'SwapReturnedZero',
    'RootNetUidNotAllowed',
    'OrderNetUidMismatch',
    'LimitOrdersDisabled',
    'RelayerMissMatch',
    'PartialFillsNotEnabled',
    'IncorrectPartialFillAmount',
    'RelayerRequiredForPartialFill',
    'ChainIdMismatch',
    'PalletHotkeyNotRegistered',
    'ArithmeticOverflow',
    'DuplicateOrderInBatch',
    'ZeroShareInBatch',
  ];
  const errors = enumeration(
    ['pallet_limit_orders', 'pallet', 'Error'],
    errorNames.map((name, index) => variant(name, index)),
    generic,
  );

  const outer = body.outerEnums as { callType: number; eventType: number; errorType: number };
  const outerVariant = (id: number, type: number, typeName: string) => {
    const list = (types[id]?.type.def as { variant?: { variants: VariantJson[] } }).variant?.variants;
    if (!list) throw new Error(`metadata: outer enum ${id} not found`);
    list.push(variant('LimitOrders', LIMIT_ORDERS_PALLET_INDEX, [field(null, type, typeName)]));
  };
  outerVariant(outer.callType, calls, 'CallableCallFor<LimitOrders, Runtime>');
  outerVariant(outer.eventType, eventsType, 'pallet_limit_orders::Event<Runtime>');
  outerVariant(outer.errorType, errors, 'pallet_limit_orders::Error<Runtime>');

  (body.pallets as unknown[]).push({
    name: 'LimitOrders',
    storage: null,
    calls: { type: calls, deprecationInfo: {} },
    events: { type: eventsType, deprecationInfo: {} },
    constants: [],
    errors: { type: errors, deprecationInfo: {} },
    associatedTypes: [],
    viewFunctions: [],
    index: LIMIT_ORDERS_PALLET_INDEX,
    docs: [],
    deprecationInfo: { notDeprecated: null },
  });
}
