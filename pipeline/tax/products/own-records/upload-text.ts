/**
 * An uploaded file's bytes as text, or why not. Everything here looks at the file as a whole, before any
 * row is read, and the size first: a 50 MB upload is refused on its length alone, before it is hashed,
 * decoded or split into lines.
 *
 * Only UTF-8 is read (a UTF-8 byte order mark allowed, as Excel's "CSV UTF-8" writes one). A UTF-16 or
 * Windows-1252 ("CSV" in older Excel) file is refused rather than guessed: a guessed encoding turns a
 * `£` or an accented label into other characters without anyone noticing.
 */

/** Bytes per file: a year of exchange records is a few hundred kilobytes; 2 MiB leaves room for several. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

const NOT_UTF8 = 'not UTF-8 text: save it as CSV UTF-8 (in Excel: Save As, "CSV UTF-8 (Comma delimited)")';

export type UploadText = { ok: true; text: string } | { ok: false; reason: string };

export function uploadText(bytes: Uint8Array): UploadText {
  if (bytes.length > MAX_UPLOAD_BYTES) return fail(tooLarge(bytes.length));
  if (bytes.length === 0) return fail('the file is empty: a header line and at least one row are needed');
  // UTF-16 byte order marks, either byte order (Excel's "Unicode text").
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail(`${NOT_UTF8} (it is UTF-16)`);
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // UTF-16 without a mark: every other byte of its ASCII text is zero.
    if (looksLikeUtf16(bytes)) return fail(`${NOT_UTF8} (it is UTF-16)`);
    return fail(`the file holds a NUL byte (at byte ${nul + 1}): it is not a text CSV file`);
  }
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD; the BOM is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail(NOT_UTF8);
  }
  if (text.trim() === '') return fail('the file is empty: a header line and at least one row are needed');
  return { ok: true, text };
}

export function tooLarge(bytes: number): string {
  return `the file is ${megabytes(bytes)}; a file may be at most ${megabytes(MAX_UPLOAD_BYTES)}`;
}

function looksLikeUtf16(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, Math.min(bytes.length, 512));
  let zeros = 0;
  for (const byte of sample) if (byte === 0) zeros++;
  return zeros >= sample.length / 4;
}

function megabytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 2 : 1)} MiB`;
}

function fail(reason: string): UploadText {
  return { ok: false, reason };
}
