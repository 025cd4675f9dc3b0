/**
 * Mainnet's everyday traffic around the world's own actions: the weight commits and reveals of subnets'
 * validators, balance transfers, stake calls the runtime refuses, EVM transactions, utility batches and proxy
 * calls, each with its fee and outcome events in the order the runtime emits them; and the wrappers
 * (`Utility.batch`/`batch_all`/`force_batch`, `Proxy.proxy`) some burns are submitted in. Filler signers are
 * accounts of their own (never a tracked coldkey), and no filler call changes a pool or a stake: the stake
 * calls fail, as rate-limited and underfunded ones do on mainnet.
 *
 * Fees (opentensor/subtensor `pallets/transaction-fee/src/lib.rs`, `withdraw_fee` and
 * `correct_and_deposit_fee`): a fee in TAO is withdrawn before the call (`Balances.Withdraw`), the author's
 * share is deposited after it (`Balances.Deposit`), then `TransactionPayment.TransactionFeePaid`; a call that
 * pays no fee (weights) emits only `TransactionFeePaid` with 0. Then `System.ExtrinsicSuccess` or
 * `ExtrinsicFailed`. Batches: each item's events then `Utility.ItemCompleted`, then `Utility.BatchCompleted`
 * (pallet-utility); a proxy call: the inner call's events then `Proxy.ProxyExecuted` (pallet-proxy).
 */
import { u8aToHex } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import { Rng } from './random.js';
import type { WorldEvent } from './world-event.js';

/** A call by pallet and name; `args` by the metadata's argument names (absent ones encode as their default). */
export interface BodyCall {
  pallet: string;
  call: string;
  args: Record<string, unknown>;
}

/** One extrinsic of a block body: a signed call (signer's public key) or an unsigned one (inherent, EVM). */
export interface ExtrinsicBody {
  signer: Uint8Array | null;
  call: BodyCall;
}

/** A filler extrinsic: its body and every event it emits, outcome included. */
export interface TrafficExtrinsic {
  body: ExtrinsicBody;
  events: WorldEvent[];
}

/** How a burn is submitted when it is wrapped: the events around its own and the body of the whole call. */
export interface BurnWrapper {
  kind: 'batch' | 'batch_all' | 'force_batch' | 'proxy';
  /** Events before the burn's own (items before it). */
  before: WorldEvent[];
  /** Events after the burn's own, the wrapper's summary included (not the outcome). */
  after: WorldEvent[];
  /** The wrapper's body, given the burn's own call. */
  body(inner: BodyCall, signer: Uint8Array): ExtrinsicBody;
}

/**
 * Events per block on finney, used when a mainnet world does not say: taostats' public API documentation
 * shows an event list of 307,814,734 events whose example row is in block 4,106,955, about 75 a block over
 * the chain's life (docs/sandbox.md, "Mainnet's density").
 */
export const MAINNET_EVENTS_PER_BLOCK = 75;

/** The subtensor pallet's error indexes used for refused stake calls (any module error decodes). */
const REFUSALS = [
  'NotEnoughBalanceToStake',
  'StakingRateLimitExceeded',
  'AmountTooLow',
  'SlippageTooHigh',
] as const;

/** `SubtensorModule`'s index in the outer enums of every finney runtime since 2023 (`AlphaBurned` is 7/91, 7/95). */
const SUBTENSOR_PALLET_INDEX = 7;

const ACCOUNT_POOL = 512;
const accountPools = new Map<string, Uint8Array[]>();

function pool(seed: string): Uint8Array[] {
  let accounts = accountPools.get(seed);
  if (!accounts) {
    accounts = Array.from({ length: ACCOUNT_POOL }, (_, i) =>
      blake2AsU8a(`${seed}/traffic/account/${i}`, 256),
    );
    if (accountPools.size > 16) accountPools.clear();
    accountPools.set(seed, accounts);
  }
  return accounts;
}

function bytes(random: Rng, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 4) {
    const word = random.next();
    for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
  }
  return out;
}

/** The sandbox's block author: fees' author share is deposited to it. */
export function blockAuthor(seed: string): Uint8Array {
  return author(seed);
}

function author(seed: string): Uint8Array {
  return pool(seed)[0]!;
}

function feeEvents(
  seed: string,
  who: Uint8Array,
  fee: bigint,
): { before: WorldEvent[]; after: WorldEvent[] } {
  if (fee === 0n) {
    return {
      before: [],
      after: [{ pallet: 'TransactionPayment', name: 'TransactionFeePaid', args: [who, 0n, 0n] }],
    };
  }
  return {
    before: [{ pallet: 'Balances', name: 'Withdraw', args: [who, fee] }],
    after: [
      { pallet: 'Balances', name: 'Deposit', args: [author(seed), fee] },
      { pallet: 'TransactionPayment', name: 'TransactionFeePaid', args: [who, fee, 0n] },
    ],
  };
}

function success(refTime: number, paysFee: boolean): WorldEvent {
  return {
    pallet: 'System',
    name: 'ExtrinsicSuccess',
    args: [
      {
        weight: { refTime, proofSize: 3_000 + (refTime % 7_000) },
        class: 'Normal',
        paysFee: paysFee ? 'Yes' : 'No',
      },
    ],
  };
}

function failure(refTime: number, subtensorIndex: number, error: number): WorldEvent {
  return {
    pallet: 'System',
    name: 'ExtrinsicFailed',
    args: [
      { Module: { index: subtensorIndex, error: new Uint8Array([error, 0, 0, 0]) } },
      { weight: { refTime, proofSize: 4_500 }, class: 'Normal', paysFee: 'Yes' },
    ],
  };
}

function signed(
  seed: string,
  who: Uint8Array,
  call: BodyCall,
  fee: bigint,
  callEvents: WorldEvent[],
  outcome: WorldEvent,
): TrafficExtrinsic {
  const fees = feeEvents(seed, who, fee);
  return { body: { signer: who, call }, events: [...fees.before, ...callEvents, ...fees.after, outcome] };
}

function transferCall(dest: Uint8Array, value: bigint): BodyCall {
  return { pallet: 'Balances', call: 'transfer_keep_alive', args: { dest: { Id: dest }, value } };
}

/** The extrinsic kinds of the filler with their relative frequency on mainnet (weights dominate). */
const KINDS: Array<[kind: string, weight: number]> = [
  ['commit', 30],
  ['reveal', 18],
  ['set_weights', 10],
  ['transfer', 12],
  ['stake_refused', 10],
  ['evm', 8],
  ['batch', 6],
  ['proxy', 6],
];
const KIND_TOTAL = KINDS.reduce((n, [, w]) => n + w, 0);

export interface TrafficContext {
  seed: string;
  block: number;
  /** Netuids alive at the block (root excluded). */
  liveNetuids: number[];
}

/** One filler extrinsic drawn from `random`. */
function drawExtrinsic(random: Rng, context: TrafficContext): TrafficExtrinsic {
  const { seed, liveNetuids } = context;
  const accounts = pool(seed);
  const who = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
  const netuid = liveNetuids.length > 0 ? random.pick(liveNetuids) : 1;
  let pick = random.int(0, KIND_TOTAL - 1);
  let kind = KINDS[0]![0];
  for (const [k, w] of KINDS) {
    if (pick < w) {
      kind = k;
      break;
    }
    pick -= w;
  }
  const fee = BigInt(random.int(20_000, 400_000));
  switch (kind) {
    case 'commit': {
      const hash = bytes(random, 32);
      return signed(
        seed,
        who,
        { pallet: 'SubtensorModule', call: 'commit_weights', args: { netuid, commit_hash: hash } },
        0n,
        [{ pallet: 'SubtensorModule', name: 'WeightsCommitted', args: [who, netuid, hash] }],
        success(random.int(60_000_000, 120_000_000), false),
      );
    }
    case 'reveal': {
      const count = random.int(8, 64);
      const uids = Array.from({ length: count }, (_, i) => i);
      const values = uids.map(() => random.int(0, 65_535));
      return signed(
        seed,
        who,
        {
          pallet: 'SubtensorModule',
          call: 'reveal_weights',
          args: { netuid, uids, values, salt: uids.map(() => random.int(0, 65_535)), version_key: 1n },
        },
        0n,
        [{ pallet: 'SubtensorModule', name: 'WeightsRevealed', args: [who, netuid, bytes(random, 32)] }],
        success(random.int(200_000_000, 900_000_000), false),
      );
    }
    case 'set_weights': {
      const count = random.int(8, 64);
      const dests = Array.from({ length: count }, (_, i) => i);
      return signed(
        seed,
        who,
        {
          pallet: 'SubtensorModule',
          call: 'set_weights',
          args: { netuid, dests, weights: dests.map(() => random.int(0, 65_535)), version_key: 1n },
        },
        0n,
        [{ pallet: 'SubtensorModule', name: 'WeightsSet', args: [netuid, random.int(0, 255)] }],
        success(random.int(200_000_000, 900_000_000), false),
      );
    }
    case 'transfer': {
      const dest = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
      const value = BigInt(random.int(1, 50_000)) * 1_000_000n;
      return signed(
        seed,
        who,
        transferCall(dest, value),
        fee,
        [{ pallet: 'Balances', name: 'Transfer', args: [who, dest, value] }],
        success(random.int(150_000_000, 250_000_000), true),
      );
    }
    case 'stake_refused': {
      const hotkey = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
      const error = random.int(0, REFUSALS.length - 1);
      const remove = random.chance(0.4);
      return signed(
        seed,
        who,
        {
          pallet: 'SubtensorModule',
          call: remove ? 'remove_stake' : 'add_stake',
          args: remove
            ? { hotkey, netuid, amount_unstaked: BigInt(random.int(1, 1_000_000)) * 1_000n }
            : { hotkey, netuid, amount_staked: BigInt(random.int(1, 1_000_000)) * 1_000n },
        },
        fee,
        [],
        failure(random.int(150_000_000, 400_000_000), SUBTENSOR_PALLET_INDEX, 30 + error),
      );
    }
    case 'evm': {
      const from = bytes(random, 20);
      const to = bytes(random, 20);
      const mapped = blake2AsU8a(from, 256);
      const gasFee = BigInt(random.int(1_000, 60_000)) * 1_000n;
      return {
        // An Ethereum transaction is an unsigned extrinsic carrying its own (Ethereum) signature.
        body: {
          signer: null,
          call: {
            pallet: 'Ethereum',
            call: 'transact',
            args: {
              transaction: {
                EIP1559: {
                  chainId: 964n,
                  nonce: BigInt(random.int(0, 5_000)),
                  maxPriorityFeePerGas: 0n,
                  maxFeePerGas: 10_000_000_000n,
                  gasLimit: BigInt(random.int(21_000, 300_000)),
                  action: { Call: to },
                  value: 0n,
                  input: bytes(random, 4 + 32 * random.int(0, 3)),
                  accessList: [],
                  oddYParity: random.chance(0.5),
                  r: bytes(random, 32),
                  s: bytes(random, 32),
                },
              },
            },
          },
        },
        events: [
          { pallet: 'Balances', name: 'Withdraw', args: [mapped, gasFee] },
          {
            pallet: 'EVM',
            name: 'Log',
            args: [{ address: to, topics: [bytes(random, 32)], data: u8aToHex(bytes(random, 32)) }],
          },
          {
            pallet: 'Ethereum',
            name: 'Executed',
            args: [from, to, bytes(random, 32), { Succeed: 'Returned' }, '0x'],
          },
          { pallet: 'Balances', name: 'Deposit', args: [author(seed), gasFee] },
          success(random.int(300_000_000, 2_000_000_000), true),
        ],
      };
    }
    case 'batch': {
      const items = random.int(2, 4);
      const calls: BodyCall[] = [];
      const events: WorldEvent[] = [];
      for (let i = 0; i < items; i++) {
        const dest = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
        const value = BigInt(random.int(1, 20_000)) * 1_000_000n;
        calls.push(transferCall(dest, value));
        events.push({ pallet: 'Balances', name: 'Transfer', args: [who, dest, value] });
        events.push({ pallet: 'Utility', name: 'ItemCompleted', args: [] });
      }
      events.push({ pallet: 'Utility', name: 'BatchCompleted', args: [] });
      return signed(
        seed,
        who,
        { pallet: 'Utility', call: random.chance(0.5) ? 'batch_all' : 'batch', args: { calls } },
        fee * BigInt(items),
        events,
        success(random.int(300_000_000, 900_000_000), true),
      );
    }
    default: {
      // A proxy (the signer) moving TAO for the account it acts for.
      const real = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
      const dest = accounts[random.int(1, ACCOUNT_POOL - 1)]!;
      const value = BigInt(random.int(1, 20_000)) * 1_000_000n;
      return signed(
        seed,
        who,
        {
          pallet: 'Proxy',
          call: 'proxy',
          args: { real: { Id: real }, force_proxy_type: null, call: transferCall(dest, value) },
        },
        fee,
        [
          { pallet: 'Balances', name: 'Transfer', args: [real, dest, value] },
          { pallet: 'Proxy', name: 'ProxyExecuted', args: [{ Ok: null }] },
        ],
        success(random.int(200_000_000, 400_000_000), true),
      );
    }
  }
}

/**
 * Filler extrinsics for one block, after the world's own: added until the block holds about
 * `eventsPerBlock` events (drawn between 0.6 and 1.4 times it per block), never fewer than none.
 */
export function trafficFor(
  context: TrafficContext,
  eventsPerBlock: number,
  eventsSoFar: number,
): TrafficExtrinsic[] {
  const random = new Rng(`${context.seed}/traffic/${context.block}`);
  const target = Math.round(eventsPerBlock * (0.6 + 0.8 * random.float()));
  const out: TrafficExtrinsic[] = [];
  let events = eventsSoFar;
  while (events < target) {
    const extrinsic = drawExtrinsic(random, context);
    if (events + extrinsic.events.length > target + 4 && out.length > 0) break;
    out.push(extrinsic);
    events += extrinsic.events.length;
  }
  return out;
}

/** The share of burns submitted inside a batch or a proxy call. */
const WRAPPED_SHARE = 0.3;

/**
 * Whether a burn (`burn_alpha` or `recycle_alpha`) of the block is wrapped, and how: a third of them, spread
 * over `Utility.batch`, `batch_all`, `force_batch` (with a `System.remark` before or after it) and
 * `Proxy.proxy` (a delegate submits it for the burner).
 */
export function burnWrapper(seed: string, block: number, burnIndex: number): BurnWrapper | null {
  const random = new Rng(`${seed}/traffic/${block}/burn/${burnIndex}`);
  if (!random.chance(WRAPPED_SHARE)) return null;
  const kinds = ['batch', 'batch_all', 'force_batch', 'proxy'] as const;
  const kind = kinds[random.int(0, kinds.length - 1)]!;
  if (kind === 'proxy') {
    const delegate = pool(seed)[random.int(1, ACCOUNT_POOL - 1)]!;
    return {
      kind,
      before: [],
      after: [{ pallet: 'Proxy', name: 'ProxyExecuted', args: [{ Ok: null }] }],
      body: (inner, signer) => ({
        signer: delegate,
        call: {
          pallet: 'Proxy',
          call: 'proxy',
          args: { real: { Id: signer }, force_proxy_type: null, call: inner },
        },
      }),
    };
  }
  const remarkFirst = random.chance(0.5);
  const remark: BodyCall = { pallet: 'System', call: 'remark', args: { remark: bytes(random, 16) } };
  const item: WorldEvent = { pallet: 'Utility', name: 'ItemCompleted', args: [] };
  return {
    kind,
    before: remarkFirst ? [item] : [],
    after: remarkFirst
      ? [item, { pallet: 'Utility', name: 'BatchCompleted', args: [] }]
      : [item, item, { pallet: 'Utility', name: 'BatchCompleted', args: [] }],
    body: (inner, signer) => ({
      signer,
      call: {
        pallet: 'Utility',
        call: kind,
        args: { calls: remarkFirst ? [remark, inner] : [inner, remark] },
      },
    }),
  };
}
