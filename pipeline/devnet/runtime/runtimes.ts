import { readSpec343, readSpec393 } from './metadata-files.js';
import { Runtime } from './runtime.js';

/** Both runtimes of the sandbox's history: spec 343 before the upgrade block, spec 393 from it on. */
export interface Runtimes {
  before: Runtime;
  after: Runtime;
}

let loaded: Runtimes | undefined;

/** Decoding and extending both blobs takes about half a second, so one process does it once. */
export function loadRuntimes(): Runtimes {
  loaded ??= { before: new Runtime(readSpec343()), after: new Runtime(readSpec393()) };
  return loaded;
}
