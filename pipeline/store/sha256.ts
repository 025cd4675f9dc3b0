import { createHash } from 'node:crypto';

/** Hex SHA-256 of bytes: what a manifest records of every object and form, and a strong ETag. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
