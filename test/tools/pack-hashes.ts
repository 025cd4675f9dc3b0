/**
 * The SHA-256 of every file of the sandbox's tax packs, on fixed clocks, so a change that should not alter
 * what a buyer receives (a refactor, a rename) can be shown to leave the packs byte-identical: run it before
 * and after, and compare the lines.
 *
 *   npx tsx test/tools/pack-hashes.ts
 *
 * The packs: the demo coldkey's 2025/26 and 2026/27 packs on the world whose history starts on 4 April 2025
 * (runtimes by date, one-hour blocks, its clock at 27 November 2026 15:00 UTC), and its 2026/27 pack on the
 * sandbox's compressed default world (35 days to the same instant). Each order is paid at a fixed instant.
 */
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { buildPack, type PackOrder } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { publishPackWorld } from '../tax/pack/pack-world.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function printPackHashes(
  label: string,
  worldOptions: Parameters<typeof publishPackWorld>[0],
  taxYears: string[],
): Promise<void> {
  const world = await publishPackWorld(worldOptions);
  const chain = openPackChain(world.devnet.url);
  try {
    for (const taxYear of taxYears) {
      const order: PackOrder = {
        id: `ord_${taxYear.replace('/', '_')}`,
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear,
        coldkeys: [world.devnet.demoColdkey],
        paidAt: new Date('2026-11-27T14:00:00Z'),
      };
      const zip = await JSZip.loadAsync(await buildPack(order, { store: world.store, chain: chain.reader }));
      for (const name of Object.keys(zip.files).sort()) {
        console.log(`${label} ${taxYear} ${name} ${sha256(await zip.file(name)!.async('uint8array'))}`);
      }
    }
  } finally {
    await chain.close();
    await world.close();
  }
}

await printPackHashes(
  'dated',
  { genesis: new Date('2025-04-04T00:00:00Z'), historyDays: 602, blockTimeMs: 3_600_000 },
  ['2025/26', '2026/27'],
);
await printPackHashes('default', { genesis: new Date('2026-10-23T00:00:00Z'), historyDays: 35 }, ['2026/27']);
