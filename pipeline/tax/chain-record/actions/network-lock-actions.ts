/**
 * A network registration's lock and its refund, as economic actions (opentensor/subtensor `subnets/subnet.rs`,
 * `do_register_network`; `staking/remove_stake.rs`, `destroy_alpha_in_out_stakes`).
 *
 * The lock: `register_network` withdraws the lock cost from the signer's free TAO (the collector's
 * `NetworkRegistered`: the signer, the netuid, the TAO withdrawn) and makes the signer the subnet's owner. The
 * owner gets no token for it: part of the TAO seeds the subnet's pool and the rest is burned or recycled. What
 * it gets is the registration, a right: the owner's cut of the subnet's emissions and, for a subnet registered
 * before October 2025 (before `NetworkRegistrationStartBlock`, spec 326 on), the lock back less the owner's
 * emission when the subnet is dissolved. Exchanging a token for a right is a disposal (CRYPTO22100): the TAO is
 * disposed of at its value and the registration (`subnet-lock:<netuid>:<registered block>`, quantity 1)
 * acquired for it.
 *
 * The refund: the dissolving extrinsic credits the owner after the holders' payouts (a `Balances.Deposit` until
 * spec 425, a transfer from the subnet's account after) and no event says which credit is the refund; the
 * collector records each as a payout of the dissolved subnet (`dissolved_netuid`). So `annotateLockRefunds`
 * marks, for a coldkey that registered that subnet, its last credit in that extrinsic as the refund when there
 * are two or more, or its only credit when the record shows no stake of its own on the subnet (a payout is
 * paid for alpha held). The refund disposes of the registration for the TAO received, that TAO acquired. A
 * subnet dissolved with no refund (a lock paid from October 2025 on is recycled for good) names no owner in
 * any event: the registration stays in its pool and the daily reconciliation, which reads `SubnetOwner`, shows
 * it gone as a point to check.
 */
import { RAO_PER_UNIT } from '../../../amounts/rao.js';
import type { LedgerEvent } from '../ledger-event.js';
import { type ActionLeg, TAO_SIDE } from './action-legs.js';

/** The quantity of a registration in its pool: one (in RAO). */
export const NETWORK_LOCK_QUANTITY = RAO_PER_UNIT;

/** The asset a registration's lock buys. */
export function networkLockAsset(netuid: number, registeredAt: number): string {
  return `subnet-lock:${netuid}:${registeredAt}`;
}

/** The netuid and registration block of a `subnet-lock:` asset, or null for any other asset. */
export function parseNetworkLockAsset(asset: string): { netuid: number; registeredAt: number } | null {
  const match = /^subnet-lock:(\d{1,5}):(\d{1,12})$/.exec(asset);
  return match ? { netuid: Number(match[1]), registeredAt: Number(match[2]) } : null;
}

const receiverOf = (e: LedgerEvent) => (e.role === 'origin' ? e.counterpart_coldkey : e.coldkey);

/**
 * The events with each lock refund marked (`lock_refund`: the registration it refunds). Events are in chain
 * order; a coldkey's registrations are its `NetworkRegistered` events.
 */
export function annotateLockRefunds(events: LedgerEvent[]): LedgerEvent[] {
  const registrations = events.filter((e) => e.kind === 'NetworkRegistered' && e.netuid !== null);
  if (registrations.length === 0) return events;
  // Each dissolving extrinsic's credits to a coldkey that registered the subnet before it.
  const credits = new Map<string, { asset: string; events: LedgerEvent[] }>();
  for (const e of events) {
    if (e.kind !== 'Transfer' || e.dissolved_netuid == null) continue;
    const receiver = receiverOf(e);
    const registration = registrations
      .filter((r) => r.coldkey === receiver && r.netuid === e.dissolved_netuid && r.block < e.block)
      .at(-1);
    if (!registration) continue;
    const key = `${e.block}/${e.extrinsic_index}/${receiver}`;
    const entry = credits.get(key) ?? {
      asset: networkLockAsset(registration.netuid!, registration.block),
      events: [],
    };
    if (!entry.events.some((x) => x.event_index === e.event_index)) entry.events.push(e);
    credits.set(key, entry);
  }
  const refunds = new Map<LedgerEvent, string>();
  for (const [key, { asset, events: paid }] of credits) {
    const receiver = key.split('/')[2];
    const { netuid, registeredAt } = parseNetworkLockAsset(asset)!;
    const staked = events.some(
      (e) =>
        (e.kind === 'StakeAdded' || e.kind === 'StakeRemoved') &&
        e.coldkey === receiver &&
        e.netuid === netuid &&
        e.block > registeredAt &&
        e.block <= paid[0]!.block,
    );
    if (paid.length >= 2 || !staked) refunds.set(paid.at(-1)!, asset);
  }
  if (refunds.size === 0) return events;
  return events.map((e) => {
    const asset = [...refunds].find(
      ([refund]) => refund.block === e.block && refund.event_index === e.event_index && e.kind === 'Transfer',
    )?.[1];
    return asset ? { ...e, lock_refund: asset } : e;
  });
}

/** The legs of a group's registrations and lock refunds of the order's coldkeys. */
export function networkLockLegs(events: readonly LedgerEvent[], coldkeys: ReadonlySet<string>): ActionLeg[] {
  const legs: ActionLeg[] = [];
  for (const e of events) {
    if (e.kind === 'NetworkRegistered' && coldkeys.has(e.coldkey) && e.netuid !== null) {
      const lock = BigInt(e.tao_rao ?? '0');
      legs.push({ side: 'dispose', asset: TAO_SIDE, rao: lock, valueTaoRao: lock });
      legs.push({
        side: 'acquire',
        asset: 'claim',
        name: networkLockAsset(e.netuid, e.block),
        rao: NETWORK_LOCK_QUANTITY,
        valueTaoRao: lock,
      });
    }
    const receiver = receiverOf(e);
    if (e.lock_refund && receiver !== null && coldkeys.has(receiver)) {
      const refund = BigInt(e.tao_rao ?? '0');
      legs.push({
        side: 'dispose',
        asset: 'claim',
        name: e.lock_refund,
        rao: NETWORK_LOCK_QUANTITY,
        valueTaoRao: refund,
      });
      legs.push({ side: 'acquire', asset: TAO_SIDE, rao: refund, valueTaoRao: refund });
    }
  }
  return legs;
}

/** A group with a registration or a lock refund of the order's. */
export function isNetworkLockGroup(events: readonly LedgerEvent[], coldkeys: ReadonlySet<string>): boolean {
  return events.some(
    (e) =>
      (e.kind === 'NetworkRegistered' && coldkeys.has(e.coldkey)) ||
      (e.lock_refund !== undefined && coldkeys.has(receiverOf(e) ?? '')),
  );
}

export function networkLockTreatment(events: readonly LedgerEvent[]): string {
  const registered = events.find((e) => e.kind === 'NetworkRegistered');
  if (registered) {
    return `network registration (register_network) of subnet ${registered.netuid}: the TAO locked is given for the registration (the subnet's ownership, and for a subnet registered before October 2025 the lock's refund on dissolution less the owner's emission), a right: TAO exchanged for it, a disposal of the TAO at its value and the registration (${networkLockAsset(registered.netuid!, registered.block)}) acquired for it (CRYPTO22100)`;
  }
  const refund = events.find((e) => e.lock_refund !== undefined)!;
  const payouts = events.some((e) => e.dissolved_netuid != null && e.lock_refund === undefined);
  return `subnet ${refund.dissolved_netuid} dissolved (NetworkRemoved) and its lock refunded to its owner (the lock less the owner's emission, credited after the holders' payouts, no event naming it a refund): the registration (${refund.lock_refund}) disposed of for the TAO refunded, that TAO acquired${payouts ? "; the alpha held on it disposed of for the TAO paid out of the subnet's account" : ''}`;
}
