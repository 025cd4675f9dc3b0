/**
 * `Accept-Encoding` (RFC 9110 12.5.3) against the encodings an object is published in. The caller's
 * weights decide; among equal weights the smaller form wins (br, then gzip, then identity). `q=0`
 * refuses a coding; `*` stands for every coding the header does not name. Identity is always
 * acceptable unless refused, and it is what an object without encoded forms is sent as.
 */
import type { PrecompressedEncoding } from '../../pipeline/store/index.js';

export type ChosenEncoding = PrecompressedEncoding | 'identity';

interface Weights {
  br: number;
  gzip: number;
  identity: number;
}

/** Clients send a handful of distinct headers; parsing each once keeps negotiation off the profile. */
const parsed = new Map<string, Weights>();
const MAX_CACHED = 256;
const NO_HEADER: Weights = { br: 0, gzip: 0, identity: 1 };

/** The encoding to send, among `available` (the forms this object has) and identity. */
export function chooseEncoding(
  header: string | null | undefined,
  available: Partial<Record<PrecompressedEncoding, unknown>>,
): ChosenEncoding {
  const weights = header == null ? NO_HEADER : weightsOf(header);
  let best: ChosenEncoding = 'identity';
  let bestQ = weights.identity;
  if (available.gzip !== undefined && weights.gzip > 0 && weights.gzip >= bestQ) {
    best = 'gzip';
    bestQ = weights.gzip;
  }
  if (available.br !== undefined && weights.br > 0 && weights.br >= bestQ) best = 'br';
  return best;
}

function weightsOf(header: string): Weights {
  let weights = parsed.get(header);
  if (weights) return weights;
  weights = parseWeights(header);
  if (parsed.size >= MAX_CACHED) parsed.clear();
  parsed.set(header, weights);
  return weights;
}

function parseWeights(header: string): Weights {
  const named: Partial<Weights> = {};
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') q = qValue(value);
    }
    // `x-gzip` is gzip (RFC 9110 8.4.1.3).
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (coding === '*') star = q;
    else if (coding === 'br' || coding === 'gzip' || coding === 'identity') named[coding] = q;
  }
  return {
    br: named.br ?? star ?? 0,
    gzip: named.gzip ?? star ?? 0,
    // Identity stays acceptable unless named with q=0, or refused through `*;q=0` (RFC 9110 12.5.3).
    identity: named.identity ?? (star === 0 ? 0 : 1),
  };
}

/** A malformed weight counts as 1, like a missing one: a caller's typo never refuses an encoding. */
function qValue(raw: string | undefined): number {
  const value = Number(raw?.trim());
  return raw !== undefined && Number.isFinite(value) && value >= 0 && value <= 1 ? value : 1;
}
