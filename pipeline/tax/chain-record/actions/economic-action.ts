/**
 * One extrinsic, one economic action. The current runtime (opentensor/subtensor spec 425) emits several
 * events per staking call: staking sends the TAO to the subnet's own account by a `Balances.Transfer` and then
 * emits `StakeAdded`; unstaking emits `StakeRemoved` and pays the TAO back by a transfer from that account
 * (`coinbase/tao.rs`); a move, swap or transfer of stake to another subnet emits `StakeRemoved`, (between
 * coldkeys) a TAO transfer, `StakeAdded`, then the summary `StakeMoved`/`StakeSwapped`/`StakeTransferred`;
 * within one subnet a `StakeRemoved` and `StakeAdded` pair carrying the TAO equivalent though no TAO moved
 * (`staking/move_stake.rs`, `transition_stake_internal`, `stake_utils.rs`, `transfer_stake_within_subnet`).
 * Booked event by event, each move would count two or three times and every stake would be disposed of twice.
 *
 * So the events of an order's coldkeys are grouped by block and extrinsic (the event's phase), and each group
 * becomes one action here: what the order gave (TAO, or alpha of positions) and what it got, each side with
 * the TAO value it is booked at. The booking code (`cgt-transactions.ts`) measures the alpha on the chain and
 * values the TAO in pounds; it never reads chain events. Older runtimes' groups (one event per call, no phase
 * in older collected records) give the same actions.
 *
 * What a group is:
 *   - a stake: TAO exchanged for alpha (its transfer to the subnet account is part of it); on root nothing;
 *   - an unstake: alpha exchanged for TAO (the payout from the subnet account is part of it);
 *   - a move or swap across subnets: one alpha exchanged for another; within one subnet, or between coldkeys
 *     of the order on one subnet: nothing;
 *   - a stake transfer to a coldkey outside the order: one disposal of the alpha at its market value (the TAO
 *     value the event states); from outside: an acquisition at that value;
 *   - a TAO transfer to or from a coldkey outside the order: a disposal or acquisition at market value; to or
 *     from a subnet's account never (`modl` `subtensr` netuid: see `chain/subnet-account.ts`);
 *   - a dissolved subnet's payout (`NetworkRemoved`, TAO paid from its account): the alpha disposed of for the
 *     TAO paid, that TAO acquired;
 *   - `AlphaRecycled`, `AlphaBurned` by the holder: a disposal for nothing;
 *   - `TransactionFeePaidWithAlpha`: a disposal of that alpha at the TAO it was swapped for;
 *   - `LimitOrderExecuted`: a buy (TAO for alpha) or a sell (alpha for TAO) at the order's amounts;
 *   - `HotkeySwapped`, `HotkeySwappedOnSubnet`, `ColdkeySwapped`: the same holding under another key, nothing;
 *   - `AutoStakeAdded`, `RootClaimed`, `SubnetLeaseDividendsDistributed`: income, counted in the day's income
 *     when received (its stake is not explained away);
 *   - a `StakeRemoved` outside any extrinsic that is no lease dividend: the AlphaV2 migration of spec 473
 *     unstaking a legacy position worth 1,000 to 3,000,000 rao to its coldkey (`migrate_alpha_v2.rs`): an
 *     unstake, named as the migration. The positions it deleted have no event: `locate-sweep.ts`.
 */
import type { LedgerEvent } from '../ledger-event.js';

export const TAO_SIDE = 'TAO' as const;

/** A holding's netuid meaning every subnet the coldkey holds (a coldkey swap moves them all). */
export const ALL_SUBNETS = -2;

/**
 * Alpha of a coldkey on a subnet: one hotkey's position, or (hotkey null) every hotkey of it there; netuid
 * `ALL_SUBNETS` (touches only): everything the coldkey holds; a negative netuid otherwise: unknown, nothing.
 */
export interface AlphaHolding {
  coldkey: string;
  hotkey: string | null;
  netuid: number;
}

/** One thing given or received, with the TAO value (RAO) it is booked at; 0 for nothing in return. */
export type ActionLeg =
  | { side: 'dispose' | 'acquire'; asset: typeof TAO_SIDE; rao: bigint; valueTaoRao: bigint }
  | {
      side: 'dispose' | 'acquire';
      asset: 'alpha';
      holding: AlphaHolding;
      /** The amount the events state; the booking measures the chain and uses this only to share a block. */
      statedRao: bigint | null;
      valueTaoRao: bigint;
      /** A transaction fee paid in this alpha (`TransactionFeePaidWithAlpha`). */
      fee?: true;
    };

export type ActionKind =
  | 'stake'
  | 'unstake'
  | 'exchange'
  | 'move'
  | 'stake-out'
  | 'stake-in'
  | 'tao-out'
  | 'tao-in'
  | 'internal'
  | 'dissolution'
  | 'recycle'
  | 'burn'
  | 'fee-in-alpha'
  | 'limit-order'
  | 'key-swap'
  | 'income'
  | 'sweep'
  | 'subnet-leg';

export interface ActionFlag {
  kind: 'transfer-out' | 'transfer-in' | 'unexplained';
  text: string;
}

export interface EconomicAction {
  kind: ActionKind;
  /** What the pack did with it, for events.csv. */
  treatment: string;
  block: number;
  time: string;
  /** The chain events it was made of (each once, in chain order). */
  events: LedgerEvent[];
  legs: ActionLeg[];
  /** Alpha holdings whose change in this block the action explains (not income), also when it books nothing. */
  touches: AlphaHolding[];
  flags: ActionFlag[];
  /** A key swap: the holdings keep their history under the new key (the pack pairs old and new positions). */
  swap?: KeySwap;
  /**
   * A transfer across the order's edge (stake-out, stake-in, tao-out, tao-in): the address on the other
   * side, so that a buyer's own address or exchange records can make it a move within their holdings.
   */
  counterparty?: string;
}

/** A hotkey swap (every holder's stake on the old hotkey moves; netuid null: on every subnet) or a coldkey swap. */
export type KeySwap =
  | { kind: 'hotkey'; oldHotkey: string; newHotkey: string; netuid: number | null }
  | { kind: 'coldkey'; oldColdkey: string; newColdkey: string };

/** The key of an event's group: its block and extrinsic; an event outside an extrinsic is grouped with its kind. */
export function groupKey(event: LedgerEvent): string {
  if (typeof event.extrinsic_index === 'number') return `${event.block}/x${event.extrinsic_index}`;
  // Older records carry no phase (undefined): each event was one call. Outside an extrinsic (null, the block's
  // initialization: epoch payouts, auto-stakes, lease dividends), a block's events belong together.
  if (event.extrinsic_index === undefined) return `${event.block}/e${event.event_index}`;
  return `${event.block}/n`;
}

/**
 * The order's events in groups of one extrinsic each, in chain order; a batch of limit orders
 * (`execute_batched_orders`, one extrinsic filling many orders) is one group per order it filled.
 */
export function groupEvents(events: readonly LedgerEvent[]): LedgerEvent[][] {
  const groups = new Map<string, LedgerEvent[]>();
  const ordered = [...events].sort(
    (a, b) => a.block - b.block || a.event_index - b.event_index || (a.role < b.role ? 1 : -1),
  );
  for (const event of ordered) {
    const key = groupKey(event);
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.values()].flatMap(splitLimitOrderBatch);
}

/**
 * Each filled order of a batch is its own trade (a buy and a sell of the same alpha in one batch are two
 * exchanges, not a move): its `OrderExecuted` with its own TAO transfer (a buyer's gross TAO to the pallet,
 * a seller's TAO from it); the batch's other events stay with the first order.
 */
function splitLimitOrderBatch(group: LedgerEvent[]): LedgerEvent[][] {
  const orders = group.filter((e) => e.kind === 'LimitOrderExecuted');
  if (orders.length < 2) return [group];
  // `execute_orders` (not batched) fills each order through the signer's own stake or unstake: its stake
  // events say it all, in one action (the booking then reads no OrderExecuted amounts).
  const signers = new Set(orders.map((order) => order.coldkey));
  if (group.some((e) => (e.kind === 'StakeAdded' || e.kind === 'StakeRemoved') && signers.has(e.coldkey))) {
    return [group];
  }
  const parts = orders.map((order) => [order]);
  const taken = new Set<LedgerEvent>(orders);
  for (const event of group) {
    if (
      event.kind !== 'Transfer' ||
      (event.from_subnet ?? null) !== null ||
      (event.to_subnet ?? null) !== null
    )
      continue;
    const sender = event.role === 'origin' ? event.coldkey : event.counterpart_coldkey;
    const receiver = event.role === 'origin' ? event.counterpart_coldkey : event.coldkey;
    const index = orders.findIndex(
      (order, i) =>
        parts[i]!.every((e) => e.kind !== 'Transfer') &&
        event.tao_rao === order.tao_rao &&
        (order.order_type === 'LimitBuy' ? sender === order.coldkey : receiver === order.coldkey),
    );
    if (index < 0) continue;
    parts[index]!.push(event);
    taken.add(event);
  }
  parts[0]!.push(...group.filter((e) => !taken.has(e)));
  return parts.map((part) => part.sort((a, b) => a.event_index - b.event_index));
}

/** Actions whose tokens crossed the order's edge: a transfer to or from another address, not an exchange. */
export const CROSSING_KINDS: ReadonlySet<ActionKind> = new Set([
  'stake-out',
  'stake-in',
  'tao-out',
  'tao-in',
]);

const INCOME_KINDS = new Set(['AutoStakeAdded', 'RootClaimed', 'SubnetLeaseDividendsDistributed']);
const SUMMARY_KINDS = new Set(['StakeMoved', 'StakeSwapped', 'StakeTransferred']);

/**
 * The economic action of one group (one extrinsic's events, as the order's coldkeys see them: an event that
 * concerns two of them appears once per coldkey).
 */
export function economicAction(group: readonly LedgerEvent[], order: ReadonlySet<string>): EconomicAction {
  if (group.length === 0) throw new Error('economic action: an empty group');
  const first = group[0]!;
  // Each chain event once; an event also seen from the other side keeps its origin record.
  const byIndex = new Map<number, LedgerEvent>();
  for (const event of group) {
    const seen = byIndex.get(event.event_index);
    if (!seen || (seen.role === 'destination' && event.role === 'origin'))
      byIndex.set(event.event_index, event);
  }
  const events = [...byIndex.values()].sort((a, b) => a.event_index - b.event_index);
  const inOrder = (coldkey: string | null) => coldkey !== null && order.has(coldkey);
  const big = (value: string | null | undefined) => BigInt(value ?? '0');
  const legs: ActionLeg[] = [];
  const touches: AlphaHolding[] = [];
  const flags: ActionFlag[] = [];
  let counterparty: string | undefined;
  // TAO sent to or received from addresses outside the order: one counterparty, or none named (a batch
  // paying several addresses is not one move a buyer's own address or record could explain).
  const crossedWith = new Set<string>();
  const ref = (e: LedgerEvent) => `${e.kind} ${e.block}/${e.event_index}`;
  const alpha = (
    side: 'dispose' | 'acquire',
    holding: AlphaHolding,
    statedRao: bigint | null,
    valueTaoRao: bigint,
  ) => {
    legs.push({ side, asset: 'alpha', holding, statedRao, valueTaoRao });
    touches.push(holding);
  };
  const tao = (side: 'dispose' | 'acquire', rao: bigint, valueTaoRao: bigint) => {
    if (rao > 0n) legs.push({ side, asset: TAO_SIDE, rao, valueTaoRao });
  };

  const summary =
    events.find((e) => SUMMARY_KINDS.has(e.kind) && e.role === 'origin') ??
    events.find((e) => SUMMARY_KINDS.has(e.kind));
  const isTransfer = (e: LedgerEvent) => e.kind === 'Transfer';
  const fromSubnet = (e: LedgerEvent) => (e.from_subnet ?? null) !== null;
  const toSubnet = (e: LedgerEvent) => (e.to_subnet ?? null) !== null;
  // The current runtime's groups carry the TAO legs to and from subnet accounts: then the TAO moves as those
  // transfers say; older groups have none, and the stake events' own TAO is what moved.
  const subnetLegs = events.some(
    (e) => isTransfer(e) && (fromSubnet(e) || toSubnet(e)) && e.dissolved_netuid == null,
  );
  // Lease dividends are paid at the epoch as a StakeRemoved from the lease's coldkey and a StakeAdded to the
  // contributor (`subnets/leasing.rs`): income of the contributor, not a stake it made.
  const leased = new Set(
    events.filter((e) => e.kind === 'SubnetLeaseDividendsDistributed').map((e) => e.coldkey),
  );
  const byEpoch = (e: LedgerEvent) => e.extrinsic_index === null && leased.size > 0;
  const removed = events.filter(
    (e) => e.kind === 'StakeRemoved' && e.role === 'origin' && inOrder(e.coldkey) && !byEpoch(e),
  );
  const added = events.filter(
    (e) => e.kind === 'StakeAdded' && e.role === 'origin' && inOrder(e.coldkey) && !byEpoch(e),
  );

  // A stake transfer that crosses the order's boundary: one disposal (or acquisition) at market value.
  if (summary?.kind === 'StakeTransferred') {
    const originIn = inOrder(summary.coldkey) && summary.role === 'origin';
    const sender = summary.role === 'origin' ? summary.coldkey : summary.counterpart_coldkey;
    const receiver = summary.role === 'origin' ? summary.counterpart_coldkey : summary.coldkey;
    const value = big(summary.tao_rao);
    if (inOrder(sender) && !inOrder(receiver)) {
      const origin = originIn ? summary : null;
      alpha(
        'dispose',
        { coldkey: sender!, hotkey: origin?.hotkey ?? null, netuid: origin?.netuid ?? -1 },
        null,
        value,
      );
      flags.push({
        kind: 'transfer-out',
        text: `${ref(summary)}: stake sent to ${receiver} (outside this order), taken as disposed of at its market value.`,
      });
      counterparty = receiver ?? undefined;
      return done(
        'stake-out',
        'stake transferred to a coldkey outside the order: one disposal at market value',
      );
    }
    if (!inOrder(sender) && inOrder(receiver)) {
      const mine = summary.role === 'destination' ? summary : null;
      alpha(
        'acquire',
        { coldkey: receiver!, hotkey: mine?.hotkey ?? null, netuid: mine?.netuid ?? -1 },
        null,
        value,
      );
      flags.push({
        kind: 'transfer-in',
        text: `${ref(summary)}: stake received from ${sender} (outside this order), taken as acquired at its market value.`,
      });
      counterparty = sender ?? undefined;
      return done('stake-in', 'stake received from a coldkey outside the order: acquisition at market value');
    }
  }

  // Stake events of the order's coldkeys: alpha out and in, and (older groups) the TAO they state.
  for (const e of removed) {
    alpha(
      'dispose',
      { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! },
      big(e.alpha_rao),
      big(e.tao_rao),
    );
    if (!subnetLegs && !(summary && SUMMARY_KINDS.has(summary.kind)))
      tao('acquire', big(e.tao_rao), big(e.tao_rao));
  }
  for (const e of added) {
    const value = big(e.tao_rao) - big(e.fee_rao);
    alpha('acquire', { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! }, big(e.alpha_rao), value);
    if (!subnetLegs && !(summary && SUMMARY_KINDS.has(summary.kind))) tao('dispose', big(e.tao_rao), value);
  }
  // An older runtime's move, swap or transfer inside the order: only the summary event.
  if (
    summary &&
    removed.length === 0 &&
    added.length === 0 &&
    summary.role === 'origin' &&
    inOrder(summary.coldkey)
  ) {
    const value = big(summary.tao_rao);
    alpha(
      'dispose',
      { coldkey: summary.coldkey, hotkey: summary.hotkey, netuid: summary.netuid! },
      null,
      value,
    );
    if (inOrder(summary.counterpart_coldkey) && summary.counterpart_netuid !== null) {
      alpha(
        'acquire',
        {
          coldkey: summary.counterpart_coldkey!,
          hotkey: summary.counterpart_hotkey,
          netuid: summary.counterpart_netuid,
        },
        null,
        value,
      );
    }
  }

  // A coldkey swap moves the old coldkey's whole free balance to the new one by a transfer
  // (`swap/swap_coldkey.rs`): part of the swap, the same owner's TAO, never a payment.
  const swaps = events.filter((e) => e.kind === 'ColdkeySwapped');
  const swapLeg = (sender: string | null, receiver: string | null) =>
    swaps.some((s) => {
      const [old, fresh] =
        s.role === 'origin' ? [s.coldkey, s.counterpart_coldkey] : [s.counterpart_coldkey, s.coldkey];
      return old === sender && fresh === receiver;
    });

  // A batch of limit orders (`pallets/limit-orders/src/lib.rs`, `execute_batched_orders`) collects a buyer's
  // gross TAO into the pallet's account and pays a seller's TAO (after the order's fee) out of it, each by a
  // transfer in the batch's extrinsic: the order's own TAO leg, which its `OrderExecuted` states already.
  const limitOrders = events.filter((e) => e.kind === 'LimitOrderExecuted' && inOrder(e.coldkey));
  const limitLeg = (sender: string | null, receiver: string | null, amount: bigint) =>
    limitOrders.some((order) =>
      order.order_type === 'LimitBuy'
        ? sender === order.coldkey && amount === big(order.tao_rao)
        : receiver === order.coldkey && amount === big(order.tao_rao),
    );

  // TAO transfers.
  for (const e of events.filter(isTransfer)) {
    const sender = e.role === 'origin' ? e.coldkey : e.counterpart_coldkey;
    const receiver = e.role === 'origin' ? e.counterpart_coldkey : e.coldkey;
    const amount = big(e.tao_rao);
    if (swapLeg(sender, receiver)) continue;
    if (!fromSubnet(e) && !toSubnet(e) && limitLeg(sender, receiver, amount)) continue;
    if (e.dissolved_netuid != null) {
      if (!inOrder(receiver)) continue;
      tao('acquire', amount, amount);
      alpha('dispose', { coldkey: receiver!, hotkey: null, netuid: e.dissolved_netuid }, null, amount);
      continue;
    }
    if (toSubnet(e) && inOrder(sender)) {
      // Staking's TAO leg: valued as the stake it buys (its fee deducted once).
      const stake = added.find((a) => a.netuid === e.to_subnet && a.coldkey === sender);
      tao('dispose', amount, stake ? big(stake.tao_rao) - big(stake.fee_rao) : amount);
      continue;
    }
    if (fromSubnet(e) && inOrder(receiver)) {
      tao('acquire', amount, amount);
      continue;
    }
    if (fromSubnet(e) || toSubnet(e)) continue;
    if (inOrder(sender) && inOrder(receiver)) continue;
    if (summary?.kind === 'StakeTransferred') continue; // the TAO leg of a transfer decided above
    if (inOrder(sender)) {
      tao('dispose', amount, amount);
      crossedWith.add(receiver ?? '');
      flags.push({
        kind: 'transfer-out',
        text: `${ref(e)}: TAO sent to ${receiver} (outside this order), taken as disposed of at its market value.`,
      });
    } else if (inOrder(receiver)) {
      tao('acquire', amount, amount);
      crossedWith.add(sender ?? '');
      flags.push({
        kind: 'transfer-in',
        text: `${ref(e)}: TAO received from ${sender} (outside this order), taken as acquired at its market value.`,
      });
    }
  }

  // The holder's own recycles and burns: gone for nothing. A burn bought in the same extrinsic
  // (`add_stake_burn`) is the alpha its stake bought, disposed of for nothing.
  for (const e of events.filter(
    (x) => (x.kind === 'AlphaRecycled' || x.kind === 'AlphaBurned') && inOrder(x.coldkey),
  )) {
    alpha('dispose', { coldkey: e.coldkey, hotkey: e.hotkey, netuid: e.netuid! }, big(e.alpha_rao), 0n);
  }
  for (const e of events.filter((x) => x.kind === 'TransactionFeePaidWithAlpha' && inOrder(x.coldkey))) {
    alpha(
      'dispose',
      { coldkey: e.coldkey, hotkey: null, netuid: e.netuid! },
      big(e.alpha_rao),
      big(e.tao_rao),
    );
    const leg = legs[legs.length - 1]!;
    if (leg.asset === 'alpha') leg.fee = true;
  }
  for (const e of limitOrders) {
    // Its stake events, when the batch emits them for the holder, already say it all.
    if (removed.some((r) => r.netuid === e.netuid) || added.some((a) => a.netuid === e.netuid)) continue;
    const holding = { coldkey: e.coldkey, hotkey: null, netuid: e.netuid! };
    if (e.order_type === 'LimitBuy') {
      tao('dispose', big(e.tao_rao), big(e.tao_rao));
      alpha('acquire', holding, big(e.alpha_rao), big(e.tao_rao));
    } else {
      alpha('dispose', holding, big(e.alpha_rao), big(e.tao_rao));
      tao('acquire', big(e.tao_rao), big(e.tao_rao));
    }
  }

  const has = (kind: string) => events.some((e) => e.kind === kind);
  const kinds = new Set(events.map((e) => e.kind));
  if (has('ColdkeySwapped') || has('HotkeySwapped') || has('HotkeySwappedOnSubnet')) {
    // The pack pairs the old key's positions with the new key's at the swap's block (set aside, like any
    // action's), and shows the swap day's income on the key the holding began the day with.
    const keySwap = events.find((e) => e.kind === 'ColdkeySwapped' || e.kind.startsWith('HotkeySwapped'))!;
    const swap: KeySwap =
      keySwap.kind === 'ColdkeySwapped'
        ? keySwap.role === 'origin'
          ? { kind: 'coldkey', oldColdkey: keySwap.coldkey, newColdkey: keySwap.counterpart_coldkey ?? '' }
          : { kind: 'coldkey', oldColdkey: keySwap.counterpart_coldkey ?? '', newColdkey: keySwap.coldkey }
        : {
            kind: 'hotkey',
            oldHotkey: keySwap.hotkey ?? '',
            newHotkey: keySwap.new_hotkey ?? '',
            netuid: keySwap.kind === 'HotkeySwappedOnSubnet' ? keySwap.netuid : null,
          };
    const what = has('ColdkeySwapped')
      ? 'coldkey swapped: the same holdings under the new coldkey, not a disposal and not income'
      : 'hotkey swapped: the same stake under the new hotkey, not a disposal and not income';
    return { ...done('key-swap', what), swap };
  }
  if (legs.length === 0 && (leased.size > 0 || [...kinds].every((k) => INCOME_KINDS.has(k)))) {
    const what = has('RootClaimed')
      ? 'root claim (RootClaimed, which states no amount: the alpha claimed is the rise of the position)'
      : has('AutoStakeAdded')
        ? 'auto-stake of a miner\u2019s incentive (AutoStakeAdded)'
        : has('SubnetLeaseDividendsDistributed')
          ? 'lease dividends of a subnet lease (SubnetLeaseDividendsDistributed)'
          : 'income';
    return done(
      'income',
      `${what}: income when received, counted in the day\u2019s income (income.csv), not a disposal`,
    );
  }
  if (has('TransactionFeePaidWithAlpha') && removed.length === 0 && added.length === 0 && !summary) {
    return done(
      'fee-in-alpha',
      'transaction fee paid in alpha: a disposal of that alpha at the TAO it was swapped for',
    );
  }
  if (has('AlphaRecycled') && removed.length === 0 && added.length === 0) {
    return done('recycle', 'alpha recycled by the holder: a disposal for nothing');
  }
  if (has('AlphaBurned') && removed.length === 0 && added.length === 0) {
    return done('burn', 'alpha burned by the holder: a disposal for nothing');
  }
  const dissolved = events.find((e) => e.dissolved_netuid != null)?.dissolved_netuid;
  if (dissolved != null) {
    return done(
      'dissolution',
      `subnet ${dissolved} dissolved (NetworkRemoved): the alpha held on it disposed of for the TAO the chain ` +
        "paid out from the subnet's account (this transfer), that TAO acquired at its value",
    );
  }
  if (has('LimitOrderExecuted') && removed.length === 0 && added.length === 0) {
    return done(
      'limit-order',
      'limit order executed: one exchange between TAO and alpha at the order\u2019s amounts',
    );
  }
  const netuids = (list: LedgerEvent[]) => new Set(list.map((e) => e.netuid));
  if (summary || (removed.length > 0 && added.length > 0)) {
    const from = summary ? summary.netuid : removed[0]!.netuid;
    const to = summary ? summary.counterpart_netuid : added[0]!.netuid;
    if (from === to || (netuids(removed).size === 1 && [...netuids(removed)][0] === [...netuids(added)][0])) {
      return done(
        'move',
        summary && summary.counterpart_coldkey !== summary.coldkey
          ? 'moved between coldkeys of this order on one subnet: not a disposal'
          : 'moved between hotkeys on one subnet: not a disposal',
      );
    }
    return done('exchange', 'one token exchanged for another: disposal and acquisition');
  }
  if (added.length > 0) {
    return done(
      'stake',
      added.every((e) => e.netuid === 0)
        ? 'stake on root: TAO stays TAO, not a disposal'
        : 'TAO exchanged for alpha: disposal of TAO, acquisition of alpha',
    );
  }
  if (removed.length > 0 && removed.every((e) => e.extrinsic_index === null)) {
    return done(
      'unstake',
      `unstaked by the chain's AlphaV2 migration (migrate_alpha_v2_and_unstake_dust_v1, spec 473, block ${first.block}, outside any extrinsic): a legacy position worth 1,000 to 3,000,000 RAO paid out to its coldkey without fee. Alpha exchanged for TAO: disposal of alpha, acquisition of TAO`,
    );
  }
  if (removed.length > 0) {
    return done(
      'unstake',
      removed.every((e) => e.netuid === 0)
        ? 'unstake from root: TAO stays TAO, not a disposal'
        : 'alpha exchanged for TAO: disposal of alpha, acquisition of TAO',
    );
  }
  if (legs.some((l) => l.asset === TAO_SIDE && l.side === 'dispose')) {
    return done('tao-out', 'TAO sent to a coldkey outside the order: disposal at market value');
  }
  if (legs.some((l) => l.asset === TAO_SIDE && l.side === 'acquire')) {
    return done('tao-in', 'TAO received from a coldkey outside the order: acquisition at market value');
  }
  if (events.every(isTransfer) && events.some((e) => fromSubnet(e) || toSubnet(e))) {
    flags.push({
      kind: 'unexplained',
      text: `${events.map(ref).join(', ')}: TAO moved to or from a subnet's own account with no staking event of this order in the same extrinsic; not a disposal, listed for checking.`,
    });
    return done(
      'subnet-leg',
      'TAO to or from a subnet account (staking\u2019s own leg): not a payment to or from anyone',
    );
  }
  return done('internal', 'between coldkeys of this order: not a disposal');

  function done(kind: ActionKind, plain: string): EconomicAction {
    // A fee paid in alpha inside another call (an unstake, say) is a second disposal the row must name.
    const feeInAlpha =
      kind !== 'fee-in-alpha' && events.some((e) => e.kind === 'TransactionFeePaidWithAlpha');
    const treatment = feeInAlpha
      ? `${plain}; its transaction fee was paid in alpha (TransactionFeePaidWithAlpha): that alpha disposed of too, at the TAO it was swapped for`
      : plain;
    const action: EconomicAction = {
      kind,
      treatment,
      block: first.block,
      time: first.time,
      events,
      legs,
      touches,
      flags,
    };
    if (counterparty === undefined && crossedWith.size === 1) counterparty = [...crossedWith][0] || undefined;
    if (counterparty !== undefined && CROSSING_KINDS.has(kind)) action.counterparty = counterparty;
    return action;
  }
}
