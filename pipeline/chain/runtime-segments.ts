/**
 * Splits a block range into runs of blocks executed by one runtime, by bisection on the runtime version:
 * two version reads for a range without an upgrade, about 2·log2(n) more per upgrade inside it.
 */
import type { ChainReader } from './chain-reader.js';
import type { RuntimeCodec } from './runtime-codec.js';

export interface RuntimeSegment {
  from: number;
  to: number;
  codec: RuntimeCodec;
}

export async function runtimeSegments(
  reader: ChainReader,
  from: number,
  to: number,
): Promise<RuntimeSegment[]> {
  const spans: Array<{ from: number; to: number; spec: number }> = [];
  const split = async (lo: number, hi: number, specLo: number, specHi: number): Promise<void> => {
    // Spec versions only grow, so equal ends mean one runtime throughout.
    if (specLo === specHi) {
      spans.push({ from: lo, to: hi, spec: specLo });
      return;
    }
    if (hi === lo + 1) {
      spans.push({ from: lo, to: lo, spec: specLo }, { from: hi, to: hi, spec: specHi });
      return;
    }
    const mid = lo + Math.floor((hi - lo) / 2);
    const [specMid, specNext] = await Promise.all([
      reader.specVersionOfBlock(mid),
      reader.specVersionOfBlock(mid + 1),
    ]);
    await Promise.all([split(lo, mid, specLo, specMid), split(mid + 1, hi, specNext, specHi)]);
  };
  const [specFrom, specTo] = await Promise.all([
    reader.specVersionOfBlock(from),
    reader.specVersionOfBlock(to),
  ]);
  await split(from, to, specFrom, specTo);
  spans.sort((a, b) => a.from - b.from);

  // Merge neighbours of the same version (bisection leaves them split).
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && last.spec === span.spec && last.to + 1 === span.from) last.to = span.to;
    else merged.push({ ...span });
  }
  return Promise.all(
    merged.map(async (span) => ({
      from: span.from,
      to: span.to,
      codec: await reader.codecOfBlock(span.from),
    })),
  );
}
