/**
 * `make bench`: the time to build the tax pack of one coldkey with 10 positions (the sandbox's demo
 * coldkey) over a full UK tax year (2025/26: 365 day ends, plus the blocks around its events) against the
 * sandbox chain with 20 ms added to every answer. Target: under 60 s. Baseline measured in the same run on
 * the same node: a naive reader, one `state_getStorage` at a time for the same keys, over 7 day ends,
 * scaled to the year's blocks.
 */
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { connectRpc } from '../../pipeline/chain/rpc-client.js';
import { positionId } from '../../pipeline/tax/chain-record/stake-at-blocks.js';
import { buildPackFiles } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { publishPackWorld } from '../tax/products/pack/pack-world.js';
import { verdict } from './sample-stats.js';

const LATENCY_MS = 20;
const TARGET_S = 60;
const BASELINE_DAYS = 7;

export async function run(): Promise<void> {
  // From 1 April 2025 to 10 April 2026: all of 2025/26 and its eve. Half-hour blocks keep collection short;
  // the pack's reads do not depend on the block time.
  const genesis = new Date('2025-04-01T00:00:00Z');
  const world = await publishPackWorld({
    genesis,
    historyDays: 374,
    blockTimeMs: 1_800_000,
    hoursIntoToday: 12,
  });
  const chain = openPackChain(world.devnet.url);
  try {
    world.devnet.setFaults({ latencyMs: LATENCY_MS });
    const order = {
      id: 'ord_bench',
      sku: 'uk-2025-26',
      packName: 'UK tax pack 2025/26',
      taxYear: '2025/26',
      coldkeys: [world.devnet.demoColdkey],
      paidAt: new Date('2026-04-10T09:00:00Z'),
    };
    const started = performance.now();
    const built = await buildPackFiles(order, { store: world.store, chain: chain.reader });
    const seconds = (performance.now() - started) / 1000;
    const ledger = built.ledger;
    const blocks = ledger.stakes.size;

    // Baseline: the same values for 7 day ends, one request at a time.
    const rpc = await connectRpc({ url: world.devnet.url, concurrency: 1 });
    const reader = new ChainReader(rpc);
    const baselineStarted = performance.now();
    const hash = await reader.blockHash(ledger.days[0]!.block);
    const codec = await reader.codec(
      (await rpc.send<{ specVersion: number }>('state_getRuntimeVersion', [hash])).specVersion,
      hash,
    );
    for (const day of ledger.days.slice(0, BASELINE_DAYS)) {
      const at = await reader.blockHash(day.block);
      await rpc.send('state_getRuntimeVersion', [at]);
      for (const p of ledger.positions) {
        for (const key of [
          codec.storageKey('SubtensorModule', 'Alpha', p.hotkey, p.coldkey, p.netuid),
          codec.storageKey('SubtensorModule', 'TotalHotkeyAlpha', p.hotkey, p.netuid),
          codec.storageKey('SubtensorModule', 'TotalHotkeyShares', p.hotkey, p.netuid),
          codec.storageKey('SubtensorModule', 'SubnetTAO', p.netuid),
          codec.storageKey('SubtensorModule', 'SubnetAlphaIn', p.netuid),
        ]) {
          await rpc.send('state_getStorage', [key, at]);
        }
      }
    }
    const baselinePerBlock = (performance.now() - baselineStarted) / 1000 / BASELINE_DAYS;
    await rpc.close();
    const baseline = baselinePerBlock * blocks;
    const positions = new Set(ledger.positions.map(positionId)).size;
    process.stdout.write(
      `tax-pack: ${positions} positions, ${ledger.days.length} UK days, ${blocks} blocks read at --latency-ms ${LATENCY_MS}: ` +
        `${seconds.toFixed(1)} s (naive one-request-at-a-time reader, measured on ${BASELINE_DAYS} days and scaled: ` +
        `${baseline.toFixed(0)} s, ${(baseline / seconds).toFixed(0)}x); target < ${TARGET_S} s: ${verdict(seconds < TARGET_S)}\n`,
    );
  } finally {
    await chain.close();
    await world.close();
  }
}
