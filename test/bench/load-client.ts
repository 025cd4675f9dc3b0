/**
 * Child-process entry of the load generator: reads a `LoadSpec` as JSON from argv, runs it, writes the
 * `LoadResult` as JSON to stdout. A separate process so that the client and the server under test each
 * have an event loop (and, on two cores, a core) of their own.
 */
import { runAutocannon } from './autocannon-load.js';
import type { LoadSpec } from './load-spec.js';

const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
const result = await runAutocannon(spec);
process.stdout.write(JSON.stringify(result));
