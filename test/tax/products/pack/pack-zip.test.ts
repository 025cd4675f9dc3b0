/**
 * The pack's zip deflated on zlib's threads (`pack-zip.ts`): what a buyer unzips is every file as it went in,
 * in the pack's order, with the order's date; a rebuild gives the same bytes (the fulfilment job relies on
 * it). Files of every shape a pack has: a CSV of many megabytes, one of a few bytes, an empty file (stored,
 * not deflated), bytes that do not compress, and text that is not ASCII.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { PackZip } from '../../../../pipeline/tax/products/pack/pack-zip.js';

const at = new Date('2026-04-10T09:00:00Z');

function files(): Array<[string, Uint8Array]> {
  const rows: string[] = ['date,coldkey,alpha,gbp'];
  for (let i = 0; i < 40_000; i++)
    rows.push(`2025-0${1 + (i % 9)}-1${i % 10},5F${(i * 7919) % 100_003},${i / 7},${(i * 31) % 977}.25`);
  const noise = noiseBytes(70_000);
  const text = (value: string) => new TextEncoder().encode(value);
  return [
    ['summary.pdf', noise],
    ['income.csv', text(`${rows.join('\r\n')}\r\n`)],
    ['empty.csv', new Uint8Array(0)],
    ['points.csv', text('kind,counterparty\r\ntransfer,5DFs… £12.50\r\n')],
    ['README.txt', text('The pack of order ord_1.\n')],
  ];
}

/** Bytes that do not compress, the same every run. */
function noiseBytes(length: number): Uint8Array {
  const noise = new Uint8Array(length);
  let seed = createHash('sha256').update('noise').digest();
  for (let i = 0; i < noise.length; i += 32) {
    seed = createHash('sha256').update(seed).digest();
    noise.set(seed.subarray(0, Math.min(32, noise.length - i)), i);
  }
  return noise;
}

async function packZip(entries: Array<[string, Uint8Array]>, handOver = entries): Promise<Uint8Array> {
  const zip = new PackZip(at);
  for (const [name, bytes] of handOver) zip.add(name, bytes);
  return zip.bytes(entries.map(([name]) => name));
}

/** Each local entry's name, compression method (0 stored, 8 deflated) and stored bytes, in the zip's order. */
function localEntries(
  zip: Uint8Array,
): Array<{ name: string; method: number; compressed: number; data: Buffer }> {
  const view = Buffer.from(zip);
  const out: Array<{ name: string; method: number; compressed: number; data: Buffer }> = [];
  let at = 0;
  while (view.readUInt32LE(at) === 0x04034b50) {
    const method = view.readUInt16LE(at + 8);
    const compressed = view.readUInt32LE(at + 18);
    const nameLength = view.readUInt16LE(at + 26);
    const extraLength = view.readUInt16LE(at + 28);
    const start = at + 30 + nameLength + extraLength;
    out.push({
      name: view.toString('utf8', at + 30, at + 30 + nameLength),
      method,
      compressed,
      data: view.subarray(start, start + compressed),
    });
    at += 30 + nameLength + extraLength + compressed;
  }
  return out;
}

describe('the pack zip deflated beside the rendering', () => {
  it('holds every file as it went in, in the pack order, with the order date, its CRC-32s right', async () => {
    const entries = files();
    // Handed over in another order than the zip's (the pack renders its big files first).
    const ours = await packZip(entries, [...entries].reverse());
    const read = await JSZip.loadAsync(ours, { checkCRC32: true });
    expect(Object.keys(read.files)).toEqual(entries.map(([name]) => name));
    for (const [name, bytes] of entries) {
      const file = read.file(name)!;
      expect(Buffer.from(await file.async('uint8array')).equals(Buffer.from(bytes))).toBe(true);
      expect(file.date.toISOString()).toBe(at.toISOString());
    }
    // Every file deflated but the empty one; the CSV to a small part of its size.
    const local = localEntries(ours);
    expect(local.map((e) => [e.name, e.method])).toEqual(
      entries.map(([name, bytes]) => [name, bytes.length === 0 ? 0 : 8]),
    );
    const csv = local.find((e) => e.name === 'income.csv')!;
    expect(csv.compressed).toBeLessThan(entries[1]![1].length / 3);
  });

  it('gives the same bytes for the same files, whatever order they were handed over in', async () => {
    const entries = files();
    const first = await packZip(entries);
    const again = await packZip(files(), [...files()].reverse());
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    // And a file changed by one byte changes the zip.
    const changed = files();
    changed[3]![1][0] = 'K'.charCodeAt(0);
    expect(Buffer.from(await packZip(changed)).equals(Buffer.from(first))).toBe(false);
  });

  it("deflates a file of many output chunks into zlib's own one-shot deflate of it", async () => {
    // 3 MiB that do not compress: more than 1 MiB out, so the deflate on the thread pool stops and goes on.
    const big = noiseBytes(3 << 20);
    const zip = await packZip([['summary.pdf', big]]);
    const [entry] = localEntries(zip);
    expect(entry!.compressed).toBeGreaterThan(3 << 20);
    expect(entry!.data.equals(deflateRawSync(big, { level: 6 }))).toBe(true);
    const read = await JSZip.loadAsync(zip, { checkCRC32: true });
    expect(Buffer.from(await read.file('summary.pdf')!.async('uint8array')).equals(Buffer.from(big))).toBe(
      true,
    );
  });

  it('keeps the caller its bytes', async () => {
    const entries = files();
    const before = entries.map(([, bytes]) => createHash('sha256').update(bytes).digest('hex'));
    await packZip(entries);
    expect(entries.map(([, bytes]) => createHash('sha256').update(bytes).digest('hex'))).toEqual(before);
  });
});
