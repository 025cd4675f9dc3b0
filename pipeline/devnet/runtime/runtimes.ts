import { readSpec343, readSpec393, readSpec425, readSpec473 } from './metadata-files.js';
import { Runtime } from './runtime.js';

/**
 * The runtimes of the sandbox's history: spec 343 before the upgrade block, spec 393 from it on, spec 425
 * (the stand-in for the runtime of mid-2026) from the current-runtime block, and spec 473 (mainnet since
 * October 2026) from the latest-runtime block, when the world has those upgrades.
 */
export interface Runtimes {
  before: Runtime;
  after: Runtime;
  current: Runtime;
  latest: Runtime;
}

let loaded: Runtimes | undefined;
let current: Runtime | undefined;
let latest: Runtime | undefined;

/**
 * Decoding and extending the blobs takes about a second, so one process does it once; specs 425 and 473
 * are built on first use (a world without those upgrades never needs them).
 */
export function loadRuntimes(): Runtimes {
  loaded ??= {
    before: new Runtime(readSpec343()),
    after: new Runtime(readSpec393()),
    get current() {
      current ??= new Runtime(readSpec425());
      return current;
    },
    get latest() {
      latest ??= new Runtime(readSpec473());
      return latest;
    },
  };
  return loaded;
}
