/**
 * The pack's zip, deflated beside the rendering: each file is handed over as soon as it is rendered and a
 * worker thread deflates it while the next one is rendered; the zip is then put together from the
 * compressed entries.
 *
 * The bytes are JSZip's own (a rebuilt pack must give the same bytes as every earlier build): the worker
 * runs the pako that JSZip deflates with, fed the same 16 KiB pieces with the same options as JSZip's
 * deflate step (raw, level 6), and JSZip's own CRC-32; JSZip then writes each entry from its compressed
 * form (`CompressedObject`, as it does for a zip it loaded) with its headers as before. A worker that
 * cannot start or fails leaves the deflating to JSZip in the calling thread: the same bytes, more slowly.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import JSZip from 'jszip';

const require = createRequire(import.meta.url);
const jszipMain = require.resolve('jszip');
const jszipRequire = createRequire(jszipMain);
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

/** JSZip's deflate level for the pack (its `compressionOptions`). */
const LEVEL = 6;
/** The size of the pieces JSZip hands its deflate step (`DataWorker`'s block). */
const JSZIP_BLOCK = 16 * 1024;

// CommonJS run in the worker: JSZip's pako and CRC-32, resolved from JSZip's own folder.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const jszipRequire = createRequire(workerData.jszipMain);
const pako = jszipRequire('pako');
const crc32 = jszipRequire('./crc32');
parentPort.on('message', ({ id, bytes }) => {
  const deflate = new pako.Deflate({ raw: true, level: workerData.level });
  for (let at = 0; at < bytes.length; at += workerData.block) {
    deflate.push(bytes.subarray(at, Math.min(at + workerData.block, bytes.length)), false);
  }
  deflate.push([], true);
  if (deflate.err) throw new Error('deflate failed: ' + deflate.msg);
  const compressed = deflate.result;
  parentPort.postMessage({ id, compressed, crc: crc32(bytes) }, [compressed.buffer]);
});
`;

interface Deflated {
  compressed: Uint8Array;
  crc: number;
}

/** Deflating threads: two keep up with the rendering of a big pack's CSVs (one fell behind it). */
const DEFLATE_THREADS = 2;

interface DeflateThread {
  worker: Worker;
  /** Bytes handed over and not yet deflated: a file goes to the thread with the fewest. */
  queued: number;
  pending: Map<number, { size: number; resolve: (d: Deflated) => void; reject: (e: Error) => void }>;
}

/**
 * A text's UTF-8 bytes in memory the deflate threads share: handing a file over then copies nothing (a big
 * pack's CSVs are about a hundred megabytes, and a copy for a thread cost a quarter of a second).
 */
export function sharedText(value: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(value, 'utf8')));
  new TextEncoder().encodeInto(value, bytes);
  return bytes;
}

export class PackZip {
  private readonly files = new Map<string, Uint8Array>();
  private readonly deflated = new Map<string, Promise<Deflated | undefined>>();
  private threads: DeflateThread[] = [];
  private failed = false;

  /** `date`: every entry's date (the order's payment time), so that a rebuild gives the same bytes. */
  constructor(private readonly date: Date) {}

  /** A file of the zip (in any order: `bytes` is given the zip's); deflating it starts now. */
  add(name: string, bytes: Uint8Array): void {
    const id = this.files.size;
    this.files.set(name, bytes);
    // An empty file is stored, not deflated (JSZip's rule): nothing to hand over.
    if (bytes.length === 0) return;
    const thread = this.leastQueued();
    if (!thread) return;
    // A file its thread failed on is deflated by JSZip with the zip (caught here, so never unhandled).
    this.deflated.set(
      name,
      new Promise<Deflated>((resolve, reject) =>
        thread.pending.set(id, { size: bytes.length, resolve, reject }),
      ).catch(() => undefined),
    );
    thread.queued += bytes.length;
    // Bytes in shared memory (`sharedText`) are handed over as they are; others are copied (the caller keeps
    // its bytes). A thread keeps the process alive only while it has work.
    thread.worker.ref();
    thread.worker.postMessage({ id, bytes });
  }

  /** The zip's bytes, its entries in `order` (every name added), once every file is deflated. */
  async bytes(order: readonly string[]): Promise<Uint8Array> {
    const zip = new JSZip();
    // JSZip writes the UTC fields of the date into the DOS date and time: the same bytes in any time zone.
    const options = { date: this.date, createFolders: false } as const;
    try {
      for (const name of order) {
        const bytes = this.files.get(name);
        if (!bytes) throw new Error(`the pack's zip has no ${name}`);
        const deflated = await this.deflated.get(name);
        if (!deflated) {
          zip.file(name, bytes, options);
          continue;
        }
        const entry = new CompressedObject(
          deflated.compressed.length,
          bytes.length,
          deflated.crc,
          DEFLATE,
          deflated.compressed,
        );
        zip.file(name, entry as unknown as Uint8Array, options);
      }
    } finally {
      await this.close();
    }
    return zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: LEVEL },
      platform: 'UNIX',
    });
  }

  /** Stops the threads (after the zip, or for a build that failed before its last file). */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private leastQueued(): DeflateThread | null {
    if (this.failed) return null;
    if (this.threads.length < DEFLATE_THREADS) {
      const thread = this.startThread();
      if (thread) this.threads.push(thread);
    }
    let least: DeflateThread | null = null;
    for (const thread of this.threads) if (!least || thread.queued < least.queued) least = thread;
    return least;
  }

  private startThread(): DeflateThread | null {
    try {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { jszipMain, level: LEVEL, block: JSZIP_BLOCK },
      });
      const thread: DeflateThread = { worker, queued: 0, pending: new Map() };
      worker.on('message', ({ id, compressed, crc }: { id: number } & Deflated) => {
        const job = thread.pending.get(id);
        if (!job) return;
        thread.pending.delete(id);
        thread.queued -= job.size;
        job.resolve({ compressed, crc });
        if (thread.pending.size === 0) worker.unref();
      });
      // A thread that fails leaves its files, and every later one, to JSZip in this thread.
      const fail = (error: Error) => {
        this.failed = true;
        for (const { reject } of thread.pending.values()) reject(error);
        thread.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (thread.pending.size > 0) fail(new Error(`a deflate thread stopped (${code})`));
      });
      return thread;
    } catch {
      if (this.threads.length === 0) this.failed = true;
      return null;
    }
  }
}
