/**
 * A pack's second thread. Once the record's transactions are final, the gains engine and the export files
 * (`cgt-input.csv`, `bittytax.csv`, `koinly.csv`) need nothing else: the thread (`pack-worker.ts`) computes
 * the gains, then renders the exports, while the build's own thread reconciles the holdings with the chain and
 * renders the other files. Before that, as soon as the chain is read, it renders `positions.csv` from the
 * stakes, while the build's thread makes the transactions. For the staker in 100 subnets that is about three
 * seconds of work off the build's thread. The thread is started while the chain is read, so that it is ready.
 *
 * The thread runs the same code on the same transactions (`record-wire.ts` carries them across), so the
 * gains and the bytes are those the build's thread would make. Whatever the thread cannot do (it does not
 * start, it fails, a decimal of an unknown precision cannot cross, the engine refuses the record) the build's
 * thread does itself: the same figures and bytes, or the same refusal, later.
 *
 * The thread is kept between builds (`threads/kept-worker.ts`): the packs after a process's first find its code
 * loaded and compiled. Each build's messages carry its own number, so that builds at the same time never take
 * each other's answers.
 */
import type { Worker } from 'node:worker_threads';
import { withDecimalsRestored } from '../../../../threads/decimals-across-threads.js';
import { leaseKeptWorker, type WorkerLease } from '../../../../threads/kept-worker.js';
import type { CgtReport } from '../../../uk-rules/cgt/cgt-types.js';
import { computeGains } from '../../../uk-rules/cgt/compute-gains.js';
import {
  EXPORT_FILE_NAMES,
  type ExportFileName,
  type ExportFiles,
  type ExportFilesInput,
  renderExportFiles,
} from '../exports/export-files.js';
import { type PositionDays, positionsFile } from '../positions-csv.js';
import { type PositionDaysWire, toPositionDaysWire } from './position-days-wire.js';
import { DECIMAL_CONSTRUCTORS, type RecordWire, toRecordWire } from './record-wire.js';

const WORKER = new URL('./pack-worker.ts', import.meta.url);

/** What the build's thread asks of the pack's thread, in this order; `job` names the build. */
export type ToPackThread =
  | { kind: 'positions'; job: number; wire: PositionDaysWire }
  | { kind: 'record'; job: number; wire: RecordWire };

/** What the pack's thread sends back (`pack-worker.ts`), in the order asked, with the build's `job`. */
export type FromPackThread = { job: number } & (
  | { kind: 'positions'; bytes: Uint8Array }
  /** The thread could not render them: the build's thread does. */
  | { kind: 'positions-failed' }
  /** The record's gains, their decimals made cloneable (`withDecimalsCloneable`). */
  | { kind: 'gains'; report: unknown }
  /** The engine refused the record: the build's thread computes the gains itself and meets the refusal. */
  | { kind: 'gains-refused' }
  /** One export file, sent as soon as it is made (the build's thread deflates it meanwhile). */
  | { kind: 'export-file'; name: ExportFileName; bytes: Uint8Array }
);

/** The gains and exports of one record, and whether the thread made them (false: the build's thread did). */
export interface PackThreadWork {
  gains: Promise<{ report: CgtReport; onThread: boolean }>;
  exports: Promise<{ files: ExportFiles; onThread: boolean }>;
}

/** The number of the next build to use the thread. */
let nextJob = 1;

/** One build's use of the pack's thread. */
export class PackThread {
  private readonly lease: WorkerLease | null;
  private readonly job = nextJob++;

  /** Starts the thread now if it is not running (it loads its code while the chain is read). */
  constructor() {
    try {
      this.lease = leaseKeptWorker(WORKER);
    } catch {
      this.lease = null;
    }
  }

  /** The thread, unless it could not start or has failed. */
  private get worker(): Worker | null {
    return this.lease && !this.lease.failed ? this.lease.worker : null;
  }

  /** Hands the record's stakes over for `positions.csv`; rendered on this thread if the thread cannot. */
  positions(
    table: PositionDays,
    names: ReadonlyMap<number, string>,
  ): Promise<{ bytes: Uint8Array; onThread: boolean }> {
    const here = () => ({ bytes: positionsFile(table, names), onThread: false });
    let message: ReturnType<typeof toPositionDaysWire> | null = null;
    if (this.worker) {
      try {
        message = toPositionDaysWire(table, names);
      } catch {
        message = null;
      }
    }
    if (!message || !this.worker) return Promise.resolve().then(here);
    const bytes = this.reply<{ bytes: Uint8Array; onThread: boolean }>((reply) => {
      if (reply.kind === 'positions') return () => ({ bytes: reply.bytes, onThread: true });
      if (reply.kind === 'positions-failed') return here;
      return undefined;
    }, here);
    this.worker.postMessage(
      { kind: 'positions', job: this.job, wire: message.wire } satisfies ToPackThread,
      message.transfer,
    );
    return bytes;
  }

  /**
   * Hands the record's final transactions over; each answer falls back to this thread if the thread fails.
   * `onExportFile` is told each export file the thread sends, as it comes (not those made here).
   */
  work(
    input: ExportFilesInput,
    onExportFile?: (name: ExportFileName, bytes: Uint8Array) => void,
  ): PackThreadWork {
    const here = {
      gains: () => ({ report: computeGains(input.transactions), onThread: false }),
      exports: () => ({ files: renderExportFiles(input), onThread: false }),
    };
    let message: ReturnType<typeof toRecordWire> | null = null;
    if (this.worker) {
      try {
        message = toRecordWire(input);
      } catch {
        message = null;
      }
    }
    if (!message || !this.worker) {
      const gains = Promise.resolve().then(here.gains);
      return { gains, exports: gains.then(here.exports, here.exports) };
    }
    const gains = this.reply<{ report: CgtReport; onThread: boolean }>((reply) => {
      if (reply.kind === 'gains')
        return () => ({
          report: withDecimalsRestored<CgtReport>(reply.report, DECIMAL_CONSTRUCTORS),
          onThread: true,
        });
      if (reply.kind === 'gains-refused') return here.gains;
      return undefined;
    }, here.gains);
    const received: Partial<ExportFiles> = {};
    const exports = this.reply<{ files: ExportFiles; onThread: boolean }>((reply) => {
      if (reply.kind !== 'export-file') return undefined;
      received[reply.name] = reply.bytes;
      onExportFile?.(reply.name, reply.bytes);
      if (!EXPORT_FILE_NAMES.every((name) => received[name])) return undefined;
      return () => ({ files: received as ExportFiles, onThread: true });
    }, here.exports);
    this.worker.postMessage(
      { kind: 'record', job: this.job, wire: message.wire } satisfies ToPackThread,
      message.transfer,
    );
    return { gains, exports };
  }

  /**
   * The outcome of the first reply `take` accepts; `fallBack` on this thread if the thread fails first. An
   * outcome that throws (the engine's refusal, met again here) rejects.
   */
  private reply<T>(take: (reply: FromPackThread) => (() => T) | undefined, fallBack: () => T): Promise<T> {
    const worker = this.worker!;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => T) => {
        if (settled) return;
        settled = true;
        worker.off('message', onMessage);
        stopWatching();
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      };
      const onMessage = (reply: FromPackThread) => {
        if (reply.job !== this.job) return;
        const outcome = take(reply);
        if (outcome) settle(outcome);
      };
      worker.on('message', onMessage);
      const stopWatching = this.lease!.onFailure(() => settle(fallBack));
    });
  }

  /** The build is done with the thread (its work done, or the build given up); it is kept for the next. */
  close(): void {
    this.lease?.release();
  }
}
