/**
 * The collector's event reader (fields decoded only when read) against the full `@polkadot/types` decode of
 * the same bytes, over the sandbox's blocks of every runtime, with mainnet's traffic and spec 425's
 * many-event calls (dissolutions, limit orders, the AlphaV2 sweep in phase Finalization).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainReader } from '../../pipeline/chain/chain-reader.js';
import { account, rao } from '../../pipeline/chain/codec-values.js';
import { connectRpc, type RpcClient } from '../../pipeline/chain/rpc-client.js';
import { subnetOfAccount, subnetOfAccountId } from '../../pipeline/chain/subnet-account.js';
import { defaultDevnetOptions, type RunningDevnet, startDevnet } from '../../pipeline/devnet/index.js';

const GENESIS = new Date('2026-10-01T00:00:00Z');
let devnet: RunningDevnet;
let rpc: RpcClient;

beforeAll(async () => {
  devnet = await startDevnet({
    ...defaultDevnetOptions,
    seed: 'event-scanner',
    historyDays: 14,
    genesis: GENESIS,
    blockTimeMs: 120_000,
    magnitudes: 'mainnet',
    now: () => GENESIS.getTime() + 14.5 * 86_400_000,
    port: 0,
    pricePort: 0,
  });
  rpc = await connectRpc({ url: devnet.url, concurrency: 16 });
}, 60_000);

afterAll(async () => {
  await rpc?.close();
  await devnet?.stop();
});

describe('reading events field by field', () => {
  it('gives what the full decode gives, block for block, in every runtime', async () => {
    const reader = new ChainReader(rpc);
    const { upgradeBlock, spec425Block, spec473Block } = devnet.world.params;
    const blocks = new Set<number>();
    for (const start of [1, upgradeBlock - 2, spec425Block! - 2, spec473Block! - 2]) {
      for (let b = start; b < start + 60; b++) blocks.add(b);
    }
    // Blocks with spec 425's own actions (epoch, limit orders, the sweep).
    for (let b = spec425Block!; b <= devnet.head() - 3; b++) {
      if (devnet.world.stakers.actionsAt(b).length > 0) blocks.add(b);
    }
    let events = 0;
    let read = 0;
    let integers = 0;
    let accounts = 0;
    for (const block of blocks) {
      const codec = await reader.codecOfBlock(block);
      const { events: raw } = await reader.eventsAndTime(await reader.blockHash(block));
      const scanned = codec.decodeEvents(raw);
      const full = codec.decodeEventsFully(raw);
      expect(scanned.length).toBe(full.length);
      for (const [i, event] of scanned.entries()) {
        const want = full[i]!;
        expect([event.index, event.extrinsicIndex, event.pallet, event.name]).toEqual([
          want.index,
          want.extrinsicIndex,
          want.pallet,
          want.name,
        ]);
        expect(event.fields.map((f) => f.toHex())).toEqual(want.fields.map((f) => f.toHex()));
        expect(event.fieldCount).toBe(want.fields.length);
        // The byte-level readers give what the codec gives, wherever they read a field.
        for (let f = 0; f < want.fields.length; f++) {
          const integer = event.uintField?.(f);
          if (integer !== undefined) {
            expect(integer).toBe(rao(want.fields[f]));
            integers += 1;
          }
          const who = event.accountField?.(f);
          if (who !== undefined) {
            expect(who.address).toBe(account(want.fields[f]));
            expect(subnetOfAccountId(who.id)).toBe(subnetOfAccount(who.address));
            accounts += 1;
          }
        }
        read += 1;
      }
      events += scanned.length;
    }
    expect(events).toBeGreaterThan(10_000);
    expect(read).toBe(events);
    expect(integers).toBeGreaterThan(10_000);
    expect(accounts).toBeGreaterThan(1_000);
  }, 300_000);
});
