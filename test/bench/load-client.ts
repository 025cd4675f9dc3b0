/**
 * Child-process entry of the load generator: reads a `LoadSpec` as JSON from argv, runs it, writes the
 * `LoadResult` as JSON to stdout. A separate process so that the client and the server under test each
 * have an event loop (and, on two cores, a core) of their own.
 */
import { type LoadSpec, runLoad } from './autocannon-load.js';

const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
const result = await runLoad(spec);
process.stdout.write(JSON.stringify(result));
