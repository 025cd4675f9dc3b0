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
 * The `encoding` form of `body` at the strongest settings (brotli quality 11, gzip level 9): a run is
 * compressed once and served many thousand times. Async zlib runs on libuv's thread pool, so several
 * objects compress at once on as many cores as there are, off the event loop.
 */
export async function compressForm(encoding: PrecompressedEncoding, body: Uint8Array): Promise<Uint8Array> {
  const out =
    encoding === 'br'
      ? await brotliAsync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
          },
        })
      : await gzipAsync(body, { level: 9 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
