// A worker thread starts without the TypeScript loader its parent runs under (tsx): it registers it, then
// loads the worker's own module, named by its file URL in `workerData.entry`.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
