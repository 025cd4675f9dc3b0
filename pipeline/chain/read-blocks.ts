/**
 * Reads the events of every block of a range with a bounded number of requests in flight, decoding each
 * block through its own runtime. Blocks are handed to `onBlock` as they arrive (not in order); the caller
 * learns the range was read completely only when the promise resolves.
 *
 * Fetching a block needs no runtime, so the blocks are fetched from the start while the range's runtimes
 * (version bisection, metadata) are worked out beside them; a block that arrives before its runtime's codec
 * waits, undecoded, for it.
 */
import { ChainDataError } from './chain-errors.js';
import type { ChainReader } from './chain-reader.js';
import { mapConcurrent } from './limiter.js';
import type { DecodedEvent, RuntimeCodec } from './runtime-codec.js';
import { type RuntimeSegment, runtimeSegments } from './runtime-segments.js';

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
  let segments: RuntimeSegment[] | null = null;
  const segmentsRead = runtimeSegments(reader, from, to).then((found) => {
    segments = found;
    return found;
  });
  // Awaited below; a failure while blocks are still being fetched must not go unhandled meanwhile.
  segmentsRead.catch(() => undefined);
  const codecOf = (list: RuntimeSegment[], number: number): RuntimeCodec => {
    const segment = list.find((s) => number >= s.from && number <= s.to);
    if (!segment)
      throw new ChainDataError(`block ${number} is in none of the runtime segments of ${from}..${to}`);
    return segment.codec;
  };
  const waiting: Array<Promise<void>> = [];
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  await mapConcurrent(numbers, options.concurrency, async (number) => {
    options.signal?.throwIfAborted();
    const hash = await reader.blockHash(number);
    const { events, timeMs } = await reader.eventsAndTime(hash);
    const decode = (list: RuntimeSegment[]) => {
      const codec = codecOf(list, number);
      options.onBlock({ number, hash, timeMs, codec, events: codec.decodeEvents(events) });
    };
    if (segments) decode(segments);
    else {
      const later = segmentsRead.then(decode);
      later.catch(() => undefined);
      waiting.push(later);
    }
  });
  await segmentsRead;
  await Promise.all(waiting);
}
