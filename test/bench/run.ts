/**
 * `make bench`: runs every `test/bench/*.bench.ts` in name order (or those named on the command line,
 * e.g. `npx tsx test/bench/run.ts publish`). Each benchmark prints its own figures next to a baseline it
 * measures in the same run, so a slow machine slows both sides and the ratio still means something.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface BenchModule {
  run(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here))
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  try {
    const module = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
    await module.run();
  } catch (error) {
    failed += 1;
    process.stdout.write(`FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
