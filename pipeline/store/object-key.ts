import { InvalidKeyError } from './store-errors.js';

/** S3 caps keys at 1,024 bytes; the folder store then stays within common path limits too. */
const MAX_KEY_BYTES = 1024;

/**
 * Accepts keys both backends store the same way: `/`-separated, relative, with no empty, `.` or `..`
 * segment (a folder store would resolve those outside its root; S3 would keep them literally),
 * no backslash (a separator on Windows) and no control characters.
 */
export function assertValidKey(key: string): void {
  if (key === '') throw new InvalidKeyError('object key is empty');
  if (new TextEncoder().encode(key).length > MAX_KEY_BYTES) {
    throw new InvalidKeyError(`object key is longer than ${MAX_KEY_BYTES} bytes: "${key.slice(0, 60)}..."`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject.
  if (/[\\\u0000-\u001f\u007f]/.test(key)) {
    throw new InvalidKeyError(
      `object key contains a backslash or a control character: ${JSON.stringify(key)}`,
    );
  }
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new InvalidKeyError(`object key has an empty, "." or ".." segment: "${key}"`);
    }
  }
}

/** A list prefix is a plain string prefix; only traversal and separators that differ by platform are refused. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  if (
    prefix.startsWith('/') ||
    prefix.includes('\\') ||
    prefix.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw new InvalidKeyError(`list prefix must be a relative key prefix: "${prefix}"`);
  }
}
