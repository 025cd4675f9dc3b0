import { Runtime } from './runtime.js';
import { runtimeEra } from './runtime-eras.js';

/**
 * The runtimes of the sandbox, built on first use by spec (decoding and extending a blob takes about half a
 * second, so one process does each once). `before`, `after`, `spec425` and `spec473` name the four runtimes of
 * the compressed history (specs 343, 393, 425, 473).
 */
export class Runtimes {
  readonly #bySpec = new Map<number, Runtime>();

  bySpec(spec: number): Runtime {
    let runtime = this.#bySpec.get(spec);
    if (!runtime) {
      runtime = new Runtime(runtimeEra(spec).metadata());
      this.#bySpec.set(spec, runtime);
    }
    return runtime;
  }

  get before(): Runtime {
    return this.bySpec(343);
  }

  get after(): Runtime {
    return this.bySpec(393);
  }

  get spec425(): Runtime {
    return this.bySpec(425);
  }

  get spec473(): Runtime {
    return this.bySpec(473);
  }
}

let loaded: Runtimes | undefined;

export function loadRuntimes(): Runtimes {
  loaded ??= new Runtimes();
  return loaded;
}
