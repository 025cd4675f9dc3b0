/**
 * A sandbox chain in a process of its own, for the benches that measure a client's CPU and memory without
 * the sandbox's: `node --import tsx test/bench/sandbox-child.ts '<json>'`, where the JSON holds the
 * `DevnetOptions` (genesis as ISO text, no functions) and `nowMs`, the fixed clock. Prints the chain's URL and
 * then its head and head hash on one line each, and stops on SIGTERM.
 */
import { type DevnetOptions, startDevnet } from '../../pipeline/devnet/index.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as {
  options: Omit<DevnetOptions, 'now' | 'genesis'> & { genesis: string };
  nowMs: number;
};
const devnet = await startDevnet({
  ...spec.options,
  genesis: new Date(spec.options.genesis),
  now: () => spec.nowMs,
  port: 0,
  pricePort: 0,
});
process.stdout.write(`${devnet.url}\nhead ${devnet.head()} ${devnet.blockHash(devnet.head())}\n`);
process.once('SIGTERM', () => {
  void devnet.stop().then(() => process.exit(0));
});
