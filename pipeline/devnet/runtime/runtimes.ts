import { readSpec343, readSpec393, readSpec425 } from './metadata-files.js';
import { Runtime } from './runtime.js';

/**
 * The runtimes of the sandbox's history: spec 343 before the upgrade block, spec 393 from it on, and
 * (when the world has a current-runtime upgrade block) spec 425, the stand-in for today's runtime.
 */
export interface Runtimes {
  before: Runtime;
  after: Runtime;
  current: Runtime;
}

let loaded: Runtimes | undefined;
let current: Runtime | undefined;

/**
 * Decoding and extending the blobs takes about a second, so one process does it once; spec 425 is
 * built on first use (a world without a current-runtime upgrade never needs it).
 */
export function loadRuntimes(): Runtimes {
  loaded ??= {
    before: new Runtime(readSpec343()),
    after: new Runtime(readSpec393()),
    get current() {
      current ??= new Runtime(readSpec425());
      return current;
    },
  };
  return loaded;
}
