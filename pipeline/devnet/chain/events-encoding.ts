import { compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import type { Runtime } from '../runtime/runtime.js';
import type { BlockEvents } from '../world/block-events.js';

/**
 * `System.Events` of a block as SCALE `Vec<EventRecord>`, encoded with the runtime that ran the block:
 * phase ApplyExtrinsic(i) (or Initialization, Finalization), then the event as pallet index, variant index and fields, then no topics.
 * Indexes come from that runtime's metadata, so `AlphaBurned` is 91 before the upgrade and 95 after.
 */
export function encodeEvents(runtime: Runtime, block: BlockEvents): string {
  const parts: Uint8Array[] = [compactToU8a(block.events.length)];
  for (const placed of block.events) {
    const shape = runtime.event(`${placed.event.pallet}.${placed.event.name}`);
    // Phase: variant 0 ApplyExtrinsic(u32), 1 Finalization, 2 Initialization (no payload for the last two).
    const phase =
      placed.extrinsic === -2
        ? new Uint8Array([1])
        : placed.extrinsic < 0
          ? new Uint8Array([2])
          : new Uint8Array(5);
    if (placed.extrinsic >= 0) new DataView(phase.buffer).setUint32(1, placed.extrinsic, true);
    parts.push(phase, new Uint8Array([shape.palletIndex, shape.variantIndex]));
    shape.fieldTypes.forEach((type, i) => {
      parts.push(runtime.encode(type, placed.event.args[i]));
    });
    parts.push(new Uint8Array([0])); // topics: empty Vec<H256>
  }
  return u8aToHex(u8aConcat(...parts));
}
