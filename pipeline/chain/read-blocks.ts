/**
 * Reads the events of every block of a range with a bounded number of requests in flight, decoding each
 * block through its own runtime. Blocks are handed to `onBlock` as they arrive (not in order); the caller
 * learns the range was read completely only when the promise resolves.
 */
import type { ChainReader } from './chain-reader.js';
import { mapConcurrent } from './limiter.js';
import type { DecodedEvent, RuntimeCodec } from './runtime-codec.js';
import { runtimeSegments } from './runtime-segments.js';

export interface BlockEvents {
  number: number;
  hash: string;
  timeMs: number;
  codec: RuntimeCodec;
  events: DecodedEvent[];
}

export interface ReadBlocksOptions {
  concurrency: number;
  onBlock: (block: BlockEvents) => void;
  signal?: AbortSignal;
}

export async function readBlocks(
  reader: ChainReader,
  from: number,
  to: number,
  options: ReadBlocksOptions,
): Promise<void> {
  if (to < from) return;
  for (const segment of await runtimeSegments(reader, from, to)) {
    const numbers = Array.from({ length: segment.to - segment.from + 1 }, (_, i) => segment.from + i);
    await mapConcurrent(numbers, options.concurrency, async (number) => {
      options.signal?.throwIfAborted();
      const hash = await reader.blockHash(number);
      const { events, timeMs } = await reader.eventsAndTime(hash);
      options.onBlock({
        number,
        hash,
        timeMs,
        codec: segment.codec,
        events: segment.codec.decodeEvents(events),
      });
    });
  }
}
