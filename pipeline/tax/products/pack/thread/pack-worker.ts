/**
 * The pack's thread (`pack-thread.ts`): given a record's stakes, renders `positions.csv`; given its final
 * transactions, computes their gains and sends them back at once (the build's thread waits for them), then
 * renders the export files, each sent back as soon as it is made. Every file's bytes go back without a copy.
 */
import { parentPort } from 'node:worker_threads';
import { withDecimalsCloneable } from '../../../../threads/decimals-across-threads.js';
import { computeGains } from '../../../uk-rules/cgt/compute-gains.js';
import { exportFilesOneByOne } from '../exports/export-files.js';
import { positionsFile } from '../positions-csv.js';
import type { FromPackThread, ToPackThread } from './pack-thread.js';
import { fromPositionDaysWire, type PositionDaysWire } from './position-days-wire.js';
import { DECIMAL_CONSTRUCTORS, fromRecordWire, type RecordWire } from './record-wire.js';

const post = (message: FromPackThread, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(message, transfer);

// Builds' work in the order asked, each answer with its build's number; the thread stays until its parent ends
// it (`threads/kept-worker.ts`), so that it never ends unasked.
parentPort!.on('message', (message: ToPackThread) => {
  if (message.kind === 'positions') positions(message.job, message.wire);
  else record(message.job, message.wire);
});

function positions(job: number, wire: PositionDaysWire): void {
  let bytes: Uint8Array;
  try {
    const { table, names } = fromPositionDaysWire(wire);
    bytes = positionsFile(table, names);
  } catch {
    post({ kind: 'positions-failed', job });
    return;
  }
  post({ kind: 'positions', job, bytes }, [bytes.buffer as ArrayBuffer]);
}

function record(job: number, wire: RecordWire): void {
  const input = fromRecordWire(wire);
  try {
    post({
      kind: 'gains',
      job,
      report: withDecimalsCloneable(computeGains(input.transactions), DECIMAL_CONSTRUCTORS),
    });
  } catch {
    // The build's thread computes them again and meets the same refusal, with its own stack.
    post({ kind: 'gains-refused', job });
  }
  for (const [name, bytes] of exportFilesOneByOne(input))
    post({ kind: 'export-file', job, name, bytes }, [bytes.buffer as ArrayBuffer]);
}
