import { compactToU8a } from '@polkadot/util';
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
    if (placed.extrinsic >= 0) {
      const phase = Buffer.alloc(5);
      phase.writeUInt32LE(placed.extrinsic, 1);
      parts.push(phase);
    } else parts.push(placed.extrinsic === -2 ? FINALIZATION : INITIALIZATION);
    parts.push(Uint8Array.of(shape.palletIndex, shape.variantIndex));
    shape.fieldTypes.forEach((type, i) => {
      parts.push(runtime.encode(type, placed.event.args[i]));
    });
    parts.push(NO_TOPICS);
  }
  return `0x${Buffer.concat(parts).toString('hex')}`;
}

const FINALIZATION = Uint8Array.of(1);
const INITIALIZATION = Uint8Array.of(2);
/** An empty `Vec<H256>`. */
const NO_TOPICS = Uint8Array.of(0);
