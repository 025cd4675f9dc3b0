/**
 * The pack's thread (`pack-thread.ts`): given a record's final transactions, computes their gains and sends
 * them back at once (the build's thread waits for them), then renders the export files and hands their bytes
 * back without a copy.
 */
import { parentPort } from 'node:worker_threads';
import { withDecimalsCloneable } from '../../../../threads/decimals-across-threads.js';
import { computeGains } from '../../../uk-rules/cgt/compute-gains.js';
import { EXPORT_FILE_NAMES, renderExportFiles } from '../exports/export-files.js';
import type { FromPackThread } from './pack-thread.js';
import { DECIMAL_CONSTRUCTORS, fromRecordWire, type RecordWire } from './record-wire.js';

const post = (message: FromPackThread, transfer: ArrayBuffer[] = []) =>
  parentPort!.postMessage(message, transfer);

// One record a thread; it stays until the build stops it (`PackThread.close`), so that it never ends unasked.
parentPort!.on('message', (wire: RecordWire) => {
  const input = fromRecordWire(wire);
  try {
    post({
      kind: 'gains',
      report: withDecimalsCloneable(computeGains(input.transactions), DECIMAL_CONSTRUCTORS),
    });
  } catch {
    // The build's thread computes them again and meets the same refusal, with its own stack.
    post({ kind: 'gains-refused' });
  }
  const files = renderExportFiles(input);
  post(
    { kind: 'exports', files },
    EXPORT_FILE_NAMES.map((name) => files[name].buffer as ArrayBuffer),
  );
});
