/**
 * Which published objects are compressed at the strongest settings (issue 37): what is public and polled
 * at brotli 11 / gzip 9; the paid windows' histories and the CSV exports faster (brotli 5 / gzip 6),
 * which kept `sbm publish` within 1.5× of a publish without precompression.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { snapshotPaths } from '../../pipeline/contract/snapshot-paths.js';
import { servedOften } from '../../pipeline/snapshots/render-run.js';
import { compressForm } from '../../pipeline/store/index.js';

describe('compression effort', () => {
  it('the list, the details and the public histories are served often; the paid windows are not', () => {
    expect(servedOften(snapshotPaths.subnetList())).toBe(true);
    expect(servedOften(snapshotPaths.subnetDetail(12))).toBe(true);
    expect(servedOften(snapshotPaths.history(12, 7))).toBe(true);
    expect(servedOften(snapshotPaths.history(12, 30))).toBe(true);
    expect(servedOften(snapshotPaths.history(12, 90))).toBe(false);
    expect(servedOften(snapshotPaths.history(12, 365))).toBe(false);
  });

  it('fast forms decode to the same bytes; max forms are no larger', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => `2026-01-${(i % 28) + 1},${i * 7.31},${i % 13}`);
    const body = new TextEncoder().encode(`date,alpha,burns\n${rows.join('\n')}\n`);
    const fastBr = await compressForm('br', body, 'fast');
    const maxBr = await compressForm('br', body, 'max');
    const fastGz = await compressForm('gzip', body, 'fast');
    expect(Buffer.from(brotliDecompressSync(fastBr)).equals(Buffer.from(body))).toBe(true);
    expect(Buffer.from(gunzipSync(fastGz)).equals(Buffer.from(body))).toBe(true);
    expect(maxBr.byteLength).toBeLessThanOrEqual(fastBr.byteLength);
    expect(await compressForm('br', body)).toEqual(maxBr);
  });
});
