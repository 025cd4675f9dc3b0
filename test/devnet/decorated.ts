/**
 * Typed access to what @polkadot/api decorates from the runtime metadata (storage, events, runtime
 * calls) without the generated augmentation, which knows nothing of subtensor.
 */
import type { ApiPromise } from '@polkadot/api';
import type { Struct, Vec } from '@polkadot/types';
import type { EventRecord } from '@polkadot/types/interfaces';
import type { Codec, IEvent } from '@polkadot/types/types';

export type Decorated = Awaited<ReturnType<ApiPromise['at']>>;

function split(path: string): [string, string] {
  const [a, b] = path.split('.');
  if (!a || !b) throw new Error(`expected "section.name", got ${path}`);
  return [a, b];
}

export function storage(state: Decorated, path: string) {
  const [pallet, item] = split(path);
  const entry = state.query[pallet]?.[item];
  if (!entry)
    throw new Error(`runtime ${state.runtimeVersion.specVersion.toString()} has no storage ${path}`);
  return entry;
}

export function read(state: Decorated, path: string, ...args: unknown[]): Promise<Codec> {
  return storage(state, path)(...args);
}

export async function events(state: Decorated): Promise<EventRecord[]> {
  return [...((await read(state, 'system.events')) as Vec<EventRecord>)];
}

export function isEvent(state: Decorated, path: string, event: EventRecord['event']): boolean {
  const [pallet, name] = split(path);
  return state.events[pallet]?.[name]?.is(event as unknown as IEvent<Codec[]>) ?? false;
}

export function runtimeCall(state: Decorated, path: string) {
  const [api, method] = split(path);
  const call = state.call[api]?.[method];
  if (!call) throw new Error(`runtime ${state.runtimeVersion.specVersion.toString()} has no call ${path}`);
  return call;
}

export function field(codec: Codec, name: string): Codec {
  const value = (codec as Struct).get(name);
  if (!value) throw new Error(`no field ${name}`);
  return value;
}

/** `Option<T>`: the inner value or null. */
export function unwrap(codec: Codec): Codec | null {
  const option = codec as unknown as { isSome: boolean; unwrap(): Codec };
  return option.isSome ? option.unwrap() : null;
}
