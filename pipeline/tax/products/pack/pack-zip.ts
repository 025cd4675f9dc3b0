/**
 * The pack's zip, deflated beside the rendering: each file is handed over as soon as it is rendered and
 * Node's zlib deflates it on libuv's thread pool (raw deflate, level 6) while the next one is rendered; JSZip
 * then writes the zip from the compressed entries (`CompressedObject`, as it does for a zip it loaded), its
 * headers and directory as before.
 *
 * Why not JSZip's own deflate (pako, in JavaScript): it took four times the CPU for the same files, and on a
 * two-core machine that CPU was taken from the build's own thread while it rendered the next file.
 *
 * The bytes depend on the files, the entry date and zlib alone: the same published run and chain give the
 * same zip on the same Node (a fulfilment worker's rebuild writes what its first build wrote). Another Node,
 * whose zlib compresses differently, can give other bytes for the same files, which read back the same.
 */
import { createRequire } from 'node:module';
import { crc32, deflateRaw } from 'node:zlib';
import JSZip from 'jszip';

const require = createRequire(import.meta.url);
const jszipRequire = createRequire(require.resolve('jszip'));
// JSZip's internals, by the paths of the version the project pins (3.10): not in its typings.
type CompressedObjectClass = new (
  compressedSize: number,
  uncompressedSize: number,
  crc32: number,
  compression: unknown,
  data: Uint8Array,
) => object;
const CompressedObject = jszipRequire('./compressedObject') as CompressedObjectClass;
const DEFLATE = (jszipRequire('./compressions') as { DEFLATE: unknown }).DEFLATE;

/** The deflate level of every entry (JSZip's `compressionOptions` for the entries it writes itself). */
const LEVEL = 6;

/**
 * zlib's output chunk. A one-shot deflate on the thread pool stops at each full output chunk and waits for
 * the main thread to take it before going on: at zlib's 16 KiB, a 24 MB CSV's deflate (2.5 MB out) stalled
 * some 150 times behind the next file's rendering, and most of it ran after the last file, with the build
 * waiting. At 1 MiB it stops a few times. The compressed bytes are the same at any chunk size.
 */
const OUTPUT_CHUNK = 1 << 20;

interface Deflated {
  compressed: Uint8Array;
  crc: number;
}

function deflated(bytes: Uint8Array): Promise<Deflated> {
  return new Promise((resolve, reject) =>
    deflateRaw(bytes, { level: LEVEL, chunkSize: OUTPUT_CHUNK }, (error, compressed) =>
      error ? reject(error) : resolve({ compressed, crc: crc32(bytes) >>> 0 }),
    ),
  );
}

export class PackZip {
  private readonly files = new Map<string, Uint8Array>();
  private readonly deflating = new Map<string, Promise<Deflated>>();

  /** `date`: every entry's date (the order's payment time), so that a rebuild gives the same bytes. */
  constructor(private readonly date: Date) {}

  /**
   * A file of the zip (in any order: `bytes` is given the zip's); deflating it starts now. The caller keeps
   * `bytes` unchanged until `bytes()` has answered (zlib reads them meanwhile).
   */
  add(name: string, bytes: Uint8Array): void {
    this.files.set(name, bytes);
    // An empty file is stored, not deflated (JSZip's rule): nothing to hand over.
    if (bytes.length === 0) return;
    const deflating = deflated(bytes);
    // A build that fails before `bytes()` never awaits it: its failure must not go unhandled.
    deflating.catch(() => undefined);
    this.deflating.set(name, deflating);
  }

  /** The zip's bytes, its entries in `order` (every name added), once every file is deflated. */
  async bytes(order: readonly string[]): Promise<Uint8Array> {
    const zip = new JSZip();
    // JSZip writes the UTC fields of the date into the DOS date and time: the same bytes in any time zone.
    const options = { date: this.date, createFolders: false } as const;
    for (const name of order) {
      const bytes = this.files.get(name);
      if (!bytes) throw new Error(`the pack's zip has no ${name}`);
      const deflating = this.deflating.get(name);
      if (!deflating) {
        zip.file(name, bytes, options);
        continue;
      }
      const { compressed, crc } = await deflating;
      const entry = new CompressedObject(compressed.length, bytes.length, crc, DEFLATE, compressed);
      zip.file(name, entry as unknown as Uint8Array, options);
    }
    return zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: LEVEL },
      platform: 'UNIX',
    });
  }
}
