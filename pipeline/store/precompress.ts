import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** The content encodings a run may carry beside an object, in the order the gateway prefers them. */
export const PRECOMPRESSED_ENCODINGS = ['br', 'gzip'] as const;
export type PrecompressedEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number];

/** The key suffix of each encoded form, beside the object's own key (`subnets.json.br`). */
export const ENCODING_SUFFIX: Record<PrecompressedEncoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Bodies under this size are not worth compressing: the saving is a few hundred bytes at most, less
 * than one TCP segment, and every encoded form is one more object to write, load and verify.
 */
export const MIN_PRECOMPRESS_BYTES = 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * How hard to compress an object's forms. `max` (brotli quality 11, gzip level 9) for what is served
 * often: compressed once, sent many thousand times, so every byte saved counts. `fast` (brotli quality
 * 5, gzip level 6) for large objects served rarely (the paid windows' histories, the CSV exports):
 * quality 11 costs some fifty times the CPU of quality 5 for a tenth fewer bytes, which those few
 * downloads never pay back, while it made `sbm publish` several times slower.
 */
export type CompressionEffort = 'max' | 'fast';

const BROTLI_QUALITY: Record<CompressionEffort, number> = { max: constants.BROTLI_MAX_QUALITY, fast: 5 };
const GZIP_LEVEL: Record<CompressionEffort, number> = { max: 9, fast: 6 };

/**
 * The `encoding` form of `body` at `effort` (`max` unless told). Async zlib runs on libuv's thread pool,
 * so several objects compress at once on as many cores as there are, off the event loop.
 */
export async function compressForm(
  encoding: PrecompressedEncoding,
  body: Uint8Array,
  effort: CompressionEffort = 'max',
): Promise<Uint8Array> {
  const out =
    encoding === 'br'
      ? await brotliAsync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
          },
        })
      : await gzipAsync(body, { level: GZIP_LEVEL[effort] });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
