/**
 * Plain values out of decoded event fields. Amounts arrive as newtypes of u64 (`TaoCurrency`,
 * `AlphaBalance`, ...) and become bigint without ever passing through a JS number.
 */
import type { Codec } from '@polkadot/types/types';
import { ChainDataError } from './chain-errors.js';

export function rao(field: Codec | undefined): bigint {
  const value = unwrap(field) as Codec & { toBigInt?: () => bigint };
  if (typeof value.toBigInt === 'function') return value.toBigInt();
  const json = value.toJSON();
  if (typeof json === 'number' || typeof json === 'string') return BigInt(json);
  throw new ChainDataError(`not an integer amount: ${value.toRawType()}`);
}

export function smallInt(field: Codec | undefined): number {
  const value = rao(field);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ChainDataError(`integer too large: ${value}`);
  return Number(value);
}

export function account(field: Codec | undefined): string {
  return unwrap(field).toString();
}

function unwrap(field: Codec | undefined): Codec {
  if (!field) throw new ChainDataError('event has fewer fields than expected');
  // A one-field tuple struct (`NetUid(u16)`) may decode as a wrapper; its only member is the value.
  const inner = field as Codec & { length?: number; [index: number]: Codec };
  if (Array.isArray(field) && inner.length === 1 && inner[0]) return inner[0];
  return field;
}
