/**
 * An event's fields as plain values: read straight from the event's bytes where the event reader can (an
 * integer or an account, event-scanner.ts), through the field's codec otherwise (codec-values.ts). The two
 * give the same values; the first costs no codec object and no SS58 work for an account already seen.
 */
import { ChainDataError } from './chain-errors.js';
import { account, rao, smallInt } from './codec-values.js';
import type { DecodedEvent } from './runtime-codec.js';
import { subnetOfAccount, subnetOfAccountId } from './subnet-account.js';

export function fieldRao(event: DecodedEvent, i: number): bigint {
  return event.uintField?.(i) ?? rao(event.fields[i]);
}

export function fieldInt(event: DecodedEvent, i: number): number {
  const value = event.uintField?.(i);
  return value === undefined ? smallInt(event.fields[i]) : smallIntOf(value);
}

export function fieldAccount(event: DecodedEvent, i: number): string {
  return event.accountField?.(i)?.address ?? account(event.fields[i]);
}

/** The netuid whose subnet account field `i` is, or null for any other account. */
export function fieldSubnetAccount(event: DecodedEvent, i: number): number | null {
  const field = event.accountField?.(i);
  return field ? subnetOfAccountId(field.id) : subnetOfAccount(account(event.fields[i]));
}

function smallIntOf(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainDataError(`integer too large: ${value}`);
  return Number(value);
}

/** How many fields the event has, without decoding them where the event reader knows. */
export function fieldCount(event: DecodedEvent): number {
  return event.fieldCount ?? event.fields.length;
}
