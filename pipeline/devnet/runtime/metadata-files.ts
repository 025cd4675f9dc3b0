import { readFileSync } from 'node:fs';
import { compactFromU8a, hexToU8a } from '@polkadot/util';
import type { MetadataBodyJson } from './metadata-json.js';

/**
 * A change made to a real blob's decoded metadata so that it stands for a runtime no blob of exists here
 * (`derived-metadata.ts`): the runtime's source at that spec says what differs.
 */
export type MetadataDerivation = (body: MetadataBodyJson) => void;

/** A runtime's metadata as the sandbox serves it: a real blob shipped in `../metadata/` (PROVENANCE.md). */
export interface MetadataFile {
  specVersion: number;
  /** The metadata version of the blob (15 or 16). */
  metadataVersion: number;
  /** Bare metadata bytes, starting with the magic `6d657461` ("meta"). */
  bytes: Uint8Array;
  /** Built from another blob: spec 393's metadata extended in memory to stand for spec 425. */
  standsFor425?: boolean;
  /** With `standsFor425`: the spec-425 stand-in changed further into spec 473's (`spec-473-runtime.ts`). */
  standsFor473?: boolean;
  /**
   * Built from the nearest real blob of another spec: these changes, then `System.Version` set to
   * `specVersion` (the blob's own spec is `derivedFrom`).
   */
  derive?: { from: number; changes: MetadataDerivation[] };
}

const folder = new URL('../metadata/', import.meta.url);

/** A blob kept as hex text of `Option<OpaqueMetadata>`: the Some byte, a compact length, then the metadata. */
function readOpaqueHex(name: string): Uint8Array {
  const wrapped = hexToU8a(readFileSync(new URL(name, folder), 'utf8').trim());
  if (wrapped[0] !== 1) throw new Error(`${name}: expected an Option::Some prefix`);
  const [offset, length] = compactFromU8a(wrapped.subarray(1));
  return wrapped.subarray(1 + offset, 1 + offset + length.toNumber());
}

/** The real blobs, by the spec whose `System.Version` they hold. */
const BLOBS: Record<number, () => MetadataFile> = {
  233: () => ({ specVersion: 233, metadataVersion: 15, bytes: readOpaqueHex('finney-spec233-v15.hex') }),
  315: () => ({ specVersion: 315, metadataVersion: 15, bytes: readOpaqueHex('finney-spec315-v15.hex') }),
  320: () => ({ specVersion: 320, metadataVersion: 15, bytes: readOpaqueHex('finney-spec320-v15.hex') }),
  343: () => ({ specVersion: 343, metadataVersion: 15, bytes: readOpaqueHex('finney-spec343-v15.hex') }),
  393: () => ({
    specVersion: 393,
    metadataVersion: 16,
    bytes: new Uint8Array(readFileSync(new URL('finney-spec393-v16.scale', folder))),
  }),
};

/** The specs a real blob is shipped for. */
export const REAL_BLOB_SPECS = Object.keys(BLOBS).map(Number);

export function readRealBlob(spec: number): MetadataFile {
  const read = BLOBS[spec];
  if (!read) throw new Error(`devnet: no metadata blob of spec ${spec} is shipped`);
  return read();
}

export function readSpec343(): MetadataFile {
  return readRealBlob(343);
}

export function readSpec393(): MetadataFile {
  return readRealBlob(393);
}

/**
 * The sandbox's spec 425: spec 393's blob, extended in memory by the Runtime
 * (`spec-425-runtime.ts`) with the V2 share storage, SafeFloat and the later events, and spec_version 425.
 */
export function readSpec425(): MetadataFile {
  return { ...readSpec393(), specVersion: 425, standsFor425: true };
}

/**
 * The sandbox's spec 473 (mainnet since October 2026): the spec-425 stand-in without the V1
 * share maps, with `NetworkRegistrationCancelled` and the `LimitOrders` pallet (`spec-473-runtime.ts`).
 */
export function readSpec473(): MetadataFile {
  return { ...readSpec393(), specVersion: 473, standsFor425: true, standsFor473: true };
}

/** A runtime with no blob of its own: the nearest real blob, changed as its source says. */
export function readDerived(spec: number, from: number, changes: MetadataDerivation[]): MetadataFile {
  return { ...readRealBlob(from), specVersion: spec, derive: { from, changes } };
}
