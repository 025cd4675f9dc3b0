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
 *
 * Two things of a run are not the world's: the published run's version ends in random bytes (the PDF names
 * the run), and the sandbox's price server listens on a free port (income.csv names the source). So this
 * process draws its random bytes from a fixed seed, and the port is written as `<port>` before hashing.
 */
import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import JSZip from 'jszip';

let seeded = createHash('sha256').update('pack-hashes').digest();
crypto.randomBytes = ((size: number) => {
  const out = Buffer.alloc(size);
  for (let filled = 0; filled < size; filled += seeded.length) {
    seeded = createHash('sha256').update(seeded).digest();
    seeded.copy(out, filled, 0, Math.min(seeded.length, size - filled));
  }
  return out;
}) as typeof crypto.randomBytes;
syncBuiltinESMExports();

const { buildPack } = await import('../../pipeline/tax/products/pack/build-pack.js');
const { openPackChain } = await import('../../pipeline/tax/products/pack/pack-chain.js');
const { publishPackWorld } = await import('../tax/products/pack/pack-world.js');
type PackOrder = import('../../pipeline/tax/products/pack/build-pack.js').PackOrder;

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
        let bytes = await zip.file(name)!.async('uint8array');
        if (!name.endsWith('.pdf')) {
          const text = new TextDecoder().decode(bytes).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
          bytes = new TextEncoder().encode(text);
        }
        console.log(`${label} ${taxYear} ${name} ${sha256(bytes)}`);
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
