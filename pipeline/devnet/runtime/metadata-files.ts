import { readFileSync } from 'node:fs';
import { compactFromU8a, hexToU8a } from '@polkadot/util';

/** The two real mainnet metadata blobs shipped in `../metadata/` (see PROVENANCE.md there). */
export interface MetadataFile {
  specVersion: number;
  /** The metadata version of the blob (15 or 16). */
  metadataVersion: number;
  /** Bare metadata bytes, starting with the magic `6d657461` ("meta"). */
  bytes: Uint8Array;
  /** Built from another blob: spec 393's metadata extended in memory to stand for the current runtime. */
  standsForCurrent?: boolean;
  /** With `standsForCurrent`: the spec-425 stand-in changed further into spec 473's (`latest-runtime.ts`). */
  standsForLatest?: boolean;
}

const folder = new URL('../metadata/', import.meta.url);

export function readSpec343(): MetadataFile {
  // The file holds `Option<OpaqueMetadata>` as hex: the Some byte, a compact length, then the metadata.
  const wrapped = hexToU8a(readFileSync(new URL('finney-spec343-v15.hex', folder), 'utf8').trim());
  if (wrapped[0] !== 1) throw new Error('finney-spec343-v15.hex: expected an Option::Some prefix');
  const [offset, length] = compactFromU8a(wrapped.subarray(1));
  const bytes = wrapped.subarray(1 + offset, 1 + offset + length.toNumber());
  return { specVersion: 343, metadataVersion: 15, bytes };
}

export function readSpec393(): MetadataFile {
  const bytes = new Uint8Array(readFileSync(new URL('finney-spec393-v16.scale', folder)));
  return { specVersion: 393, metadataVersion: 16, bytes };
}

/**
 * The sandbox's current runtime (spec 425): spec 393's blob, extended in memory by the Runtime
 * (`current-runtime.ts`) with the V2 share storage, SafeFloat and the later events, and spec_version 425.
 */
export function readSpec425(): MetadataFile {
  return { ...readSpec393(), specVersion: 425, standsForCurrent: true };
}

/**
 * The sandbox's latest runtime (spec 473, mainnet since October 2026): the spec-425 stand-in without the V1
 * share maps, with `NetworkRegistrationCancelled` and the `LimitOrders` pallet (`latest-runtime.ts`).
 */
export function readSpec473(): MetadataFile {
  return { ...readSpec393(), specVersion: 473, standsForCurrent: true, standsForLatest: true };
}
