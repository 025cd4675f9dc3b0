/**
 * The pack's zip deflated in worker threads (`pack-zip.ts`) must be JSZip's own bytes: a rebuilt pack is
 * compared with the stored one byte for byte. Files of every shape a pack has: a CSV of many 16 KiB pieces
 * (the size JSZip hands its deflate step), one under a piece, an empty file (stored, not deflated), bytes
 * that do not compress, and text that is not ASCII.
 */
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { PackZip } from '../../../../pipeline/tax/products/pack/pack-zip.js';

const at = new Date('2026-04-10T09:00:00Z');

function files(): Array<[string, Uint8Array]> {
  const rows: string[] = ['date,coldkey,alpha,gbp'];
  for (let i = 0; i < 40_000; i++)
    rows.push(`2025-0${1 + (i % 9)}-1${i % 10},5F${(i * 7919) % 100_003},${i / 7},${(i * 31) % 977}.25`);
  const noise = new Uint8Array(70_000);
  let seed = createHash('sha256').update('noise').digest();
  for (let i = 0; i < noise.length; i += 32) {
    seed = createHash('sha256').update(seed).digest();
    noise.set(seed.subarray(0, Math.min(32, noise.length - i)), i);
  }
  const text = (value: string) => new TextEncoder().encode(value);
  return [
    ['summary.pdf', noise],
    ['income.csv', text(`${rows.join('\r\n')}\r\n`)],
    ['empty.csv', new Uint8Array(0)],
    ['points.csv', text('kind,counterparty\r\ntransfer,5DFs… £12.50\r\n')],
    ['README.txt', text('The pack of order ord_1.\n')],
  ];
}

async function jszipBytes(entries: Array<[string, Uint8Array]>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, bytes] of entries) zip.file(name, bytes, { date: at, createFolders: false });
  return zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
    platform: 'UNIX',
  });
}

describe('the pack zip deflated beside the rendering', () => {
  it('gives the bytes JSZip gives for the same files', async () => {
    const entries = files();
    const zip = new PackZip(at);
    // Handed over in another order than the zip's (the pack renders its big files first).
    for (const [name, bytes] of [...entries].reverse()) zip.add(name, bytes);
    const ours = await zip.bytes(entries.map(([name]) => name));
    const theirs = await jszipBytes(entries);
    expect(ours.length).toBe(theirs.length);
    expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
    // And the files read back as they went in.
    const read = await JSZip.loadAsync(ours);
    for (const [name, bytes] of entries) {
      expect(Buffer.from(await read.file(name)!.async('uint8array')).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('keeps the caller its bytes (the worker deflates a copy)', async () => {
    const entries = files();
    const before = entries.map(([, bytes]) => createHash('sha256').update(bytes).digest('hex'));
    const zip = new PackZip(at);
    for (const [name, bytes] of entries) zip.add(name, bytes);
    await zip.bytes(entries.map(([name]) => name));
    expect(entries.map(([, bytes]) => createHash('sha256').update(bytes).digest('hex'))).toEqual(before);
  });
});
