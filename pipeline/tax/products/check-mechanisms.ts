/**
 * The mechanisms beside plain staking that a coldkey's history ran, as the free check names them (the
 * `mechanisms` of `GET /tax/check.json`), and what the pack does with each: lists it in Points to check, or
 * books it by its method without a point. Read from the coldkey's published event shard (every collected
 * staking event of the coldkey, the events the pack reads), which the check fetches already for its event
 * count, and the shard of the account of the coldkey's own EVM address (its staking through the EVM). So it names what the pack will see; what moved with no event the pack reads (a lease
 * dividend before spec 361) is the pack's daily reconciliation's to find, never the check's.
 *
 * The rules follow the chain record's (`chain-record/actions/economic-action.ts`, `liquidity-actions.ts`): one
 * extrinsic's events are one call; a transfer to or from a subnet's account is staking's own TAO leg (or a
 * dissolution's payout), one to or from a crowdloan's funds account the crowdloan's, one inside a coldkey swap
 * or a limit order that call's own, one with the coldkey's own EVM address the same owner's TAO; any other
 * transfer crosses to another address.
 */
import { CHECK_MECHANISM_IDS, type CheckMechanism, type CheckMechanismId } from '../../contract/tax-check.js';
import type { ColdkeyEvent } from '../../contract/tax-published.js';
import { ukDay } from '../../time/uk-day.js';
import { ukTaxYearOf } from '../../time/uk-tax-year.js';
import { ownEvmAddressAt } from '../chain-record/actions/own-evm-address.js';

interface MechanismText {
  name: string;
  inPack: CheckMechanism['in_pack'];
  pack: string;
}

/** Each mechanism's name and what the pack does with it; the order page lists the same words. */
export const CHECK_MECHANISMS: Readonly<Record<CheckMechanismId, MechanismText>> = {
  transfer_out: {
    name: 'TAO or stake sent to another address',
    inPack: 'point_to_check',
    pack: 'Taken as disposed of at its market value and listed in Points to check: name the address on the order page if it is yours (an exchange deposit address, another wallet), and it becomes a move within your holdings.',
  },
  transfer_in: {
    name: 'TAO or stake received from another address',
    inPack: 'point_to_check',
    pack: 'Taken as acquired at its market value and listed in Points to check: name the address on the order page if it is yours.',
  },
  coldkey_swap: {
    name: 'Coldkey swap',
    inPack: 'point_to_check',
    pack: 'The pack follows the holdings to the new coldkey (its events are read too) and says so in Points to check.',
  },
  liquidity_refund: {
    name: 'User liquidity closed by the chain (disable_lp or a dissolution)',
    inPack: 'point_to_check',
    pack: 'No event names the position: the pack disposes of the positions it saw opened on that subnet for the TAO credited and the alpha the chain shows added, and lists it in Points to check.',
  },
  user_liquidity: {
    name: 'User liquidity positions (add, remove, modify)',
    inPack: 'booked',
    pack: 'Adding is a disposal of the TAO and alpha at market value and the position acquired (CRYPTO61620); taking out disposes of the position; the fees paid out with it are income when received, in income.csv and the income total.',
  },
  crowdloan: {
    name: 'Crowdloan contributions, withdrawals and refunds',
    inPack: 'booked',
    pack: "A contribution disposes of the TAO for the contribution; a withdrawal or refund disposes of it for the TAO returned. A lease's dividends paid before spec 361 (December 2025) came as TAO with no event: the pack's daily reconciliation lists each as an unexplained difference in Points to check.",
  },
  lease_dividends: {
    name: 'Subnet lease dividends',
    inPack: 'booked',
    pack: 'Income when received (each announced by SubnetLeaseDividendsDistributed), in income.csv.',
  },
  registration: {
    name: 'Neuron registrations',
    inPack: 'booked',
    pack: 'The TAO burned is a disposal at its market value, given for a service; nothing is acquired.',
  },
  network_registration: {
    name: 'Network registrations (a subnet registered, its lock and any refund)',
    inPack: 'booked',
    pack: "The TAO locked is exchanged for the registration, a right: a disposal of that TAO at its market value and the registration acquired for it. A refund of the lock when the subnet is dissolved (subnets registered before October 2025) disposes of the registration for the TAO returned; a registration gone with no refund shows in the daily reconciliation's Points to check.",
  },
  transaction_fees: {
    name: 'Transaction fees',
    inPack: 'booked',
    pack: 'The TAO (or alpha) paid is a disposal at its value and an allowable cost of its call (CRYPTO22150).',
  },
  reserved_deposit: {
    name: 'Reserved deposits (a proxy, an identity, a multisig)',
    inPack: 'booked',
    pack: 'Still yours: no disposal, the TAO stays in its pool, and its return is no acquisition.',
  },
  own_evm_transfer: {
    name: "TAO to or from the coldkey's own EVM address",
    inPack: 'booked',
    pack: 'A move within your holdings: no disposal, the TAO stays in its pool.',
  },
  evm_staking: {
    name: "Staking through the EVM staking precompile from the coldkey's own EVM address",
    inPack: 'booked',
    pack: "The stake is held by the account of the coldkey's own EVM address, which only the coldkey controls: the pack reads it as the coldkey's own, its stake and unstake exchanges of TAO and alpha as any, its emissions income.",
  },
  dissolution: {
    name: 'Dissolved subnet payouts',
    inPack: 'booked',
    pack: 'A disposal of the alpha held on the subnet for the TAO paid, that TAO acquired at its value.',
  },
  limit_order: {
    name: 'Limit orders filled',
    inPack: 'booked',
    pack: 'One exchange per order, at its own amounts.',
  },
  recycle_or_burn: {
    name: 'Alpha recycled or burned',
    inPack: 'booked',
    pack: 'A disposal for nothing: its cost is a loss.',
  },
  hotkey_swap: {
    name: 'Hotkey swaps',
    inPack: 'booked',
    pack: 'The same holding under another key: nothing is booked.',
  },
  auto_stake: {
    name: 'Auto-staked miner incentive',
    inPack: 'booked',
    pack: 'Income of its day, in income.csv.',
  },
  root_claim: {
    name: 'Root claims',
    inPack: 'booked',
    pack: 'Income of its day, in income.csv.',
  },
};

/** The mechanism an event of this kind is, whatever else its call holds; null for plain staking and transfers. */
const BY_KIND: Partial<Record<ColdkeyEvent['kind'], CheckMechanismId>> = {
  ColdkeySwapped: 'coldkey_swap',
  LiquidityRefunded: 'liquidity_refund',
  LiquidityAdded: 'user_liquidity',
  LiquidityRemoved: 'user_liquidity',
  LiquidityModified: 'user_liquidity',
  CrowdloanContributed: 'crowdloan',
  CrowdloanWithdrew: 'crowdloan',
  SubnetLeaseDividendsDistributed: 'lease_dividends',
  NeuronRegistered: 'registration',
  NetworkRegistered: 'network_registration',
  TransactionFeePaid: 'transaction_fees',
  TransactionFeePaidWithAlpha: 'transaction_fees',
  Reserved: 'reserved_deposit',
  Unreserved: 'reserved_deposit',
  LimitOrderExecuted: 'limit_order',
  AlphaRecycled: 'recycle_or_burn',
  AlphaBurned: 'recycle_or_burn',
  HotkeySwapped: 'hotkey_swap',
  HotkeySwappedOnSubnet: 'hotkey_swap',
  AutoStakeAdded: 'auto_stake',
  RootClaimed: 'root_claim',
};

/** Marks an event of the own EVM address's account (a kind no collected event has). */
const EVM_STAKING = 'EvmStaking' as ColdkeyEvent['kind'];

export interface CheckMechanisms {
  mechanisms: CheckMechanism[];
  window: { from: string; to: string };
}

/**
 * The mechanisms of `coldkey`'s events (its list in its shard) in the UK tax year of `nowMs` and the one
 * before, from the later of that year's 6 April and the record's first UK day, up to now. One entry per
 * mechanism and tax year; the current year first, then in the contract's order (points to check first).
 */
export function checkMechanisms(
  coldkey: string,
  events: readonly ColdkeyEvent[],
  nowMs: number,
  recordFirstDay: string | null,
  ownEvmEvents: readonly ColdkeyEvent[] = [],
): CheckMechanisms {
  const current = ukTaxYearOf(nowMs);
  const previous = ukTaxYearOf(current.startMs - 1);
  const today = ukDay(nowMs);
  const from =
    recordFirstDay !== null && recordFirstDay > previous.firstDay
      ? recordFirstDay < today
        ? recordFirstDay
        : today
      : previous.firstDay;

  // One call is one extrinsic's events; an event outside any call (an epoch's) is its own.
  const calls = new Map<string, ColdkeyEvent[]>();
  // The account of the coldkey's own EVM address (evm-staking.ts of the chain record): its own staking calls
  // are the coldkey's, through the EVM staking precompile. Its TAO transfers are in the coldkey's list already.
  const evmStaking = ownEvmEvents.filter((event) => event.kind !== 'Transfer' && event.role === 'origin');
  for (const event of [...events, ...evmStaking.map((event) => ({ ...event, kind: EVM_STAKING }))]) {
    const at = Date.parse(event.time);
    if (at < previous.startMs || at > nowMs) continue;
    const key =
      event.extrinsic_index == null
        ? `${event.block}/e${event.event_index}`
        : `${event.block}/x${event.extrinsic_index}`;
    const call = calls.get(key);
    if (call) call.push(event);
    else calls.set(key, [event]);
  }

  const found = new Map<
    string,
    { id: CheckMechanismId; year: string; count: number; first: string; last: string }
  >();
  for (const call of calls.values()) {
    const day = ukDay(Date.parse(call[0]!.time));
    const year = ukTaxYearOf(Date.parse(call[0]!.time)).label;
    for (const id of mechanismsOfCall(coldkey, call)) {
      const key = `${year} ${id}`;
      const entry = found.get(key);
      if (!entry) found.set(key, { id, year, count: 1, first: day, last: day });
      else {
        entry.count += 1;
        if (day < entry.first) entry.first = day;
        if (day > entry.last) entry.last = day;
      }
    }
  }

  const order = (id: CheckMechanismId) => CHECK_MECHANISM_IDS.indexOf(id);
  const mechanisms = [...found.values()]
    .sort((a, b) => b.year.localeCompare(a.year) || order(a.id) - order(b.id))
    .map((entry) => ({
      mechanism: entry.id,
      name: CHECK_MECHANISMS[entry.id].name,
      tax_year: entry.year,
      count: entry.count,
      first_day: entry.first,
      last_day: entry.last,
      in_pack: CHECK_MECHANISMS[entry.id].inPack,
      pack: CHECK_MECHANISMS[entry.id].pack,
    }));
  return { mechanisms, window: { from, to: today } };
}

/** The mechanisms one call (or one event outside a call) ran for the coldkey, each once. */
function mechanismsOfCall(coldkey: string, call: readonly ColdkeyEvent[]): Set<CheckMechanismId> {
  const ids = new Set<CheckMechanismId>();
  const kinds = new Set(call.map((event) => event.kind));
  for (const event of call) {
    if (event.kind === EVM_STAKING) {
      ids.add('evm_staking');
      continue;
    }
    const id = BY_KIND[event.kind];
    if (id) ids.add(id);
    if (event.kind === 'StakeTransferred' && event.counterpart_coldkey !== coldkey) {
      ids.add(event.role === 'origin' ? 'transfer_out' : 'transfer_in');
    }
    if (event.kind !== 'Transfer') continue;
    if (event.dissolved_netuid != null) {
      // A dissolved subnet's payout; a refund of user liquidity in the same call is booked as it (see the method).
      if (event.role === 'destination') ids.add('dissolution');
      continue;
    }
    if (event.from_crowdloan != null || event.to_crowdloan != null) {
      ids.add('crowdloan');
      continue;
    }
    // Staking's own TAO leg, and the legs of a stake transfer, a coldkey swap or a limit order.
    if (event.from_subnet != null || event.to_subnet != null) continue;
    if (kinds.has('StakeTransferred') || kinds.has('ColdkeySwapped') || kinds.has('LimitOrderExecuted'))
      continue;
    const other = event.counterpart_coldkey;
    if (other === coldkey) continue;
    if (ownEvmAddressAt(coldkey, other) !== null) {
      ids.add('own_evm_transfer');
      continue;
    }
    ids.add(event.role === 'origin' ? 'transfer_out' : 'transfer_in');
  }
  return ids;
}
