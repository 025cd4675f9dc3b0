/**
 * `make pack-preview`: builds the tax pack of the sandbox's demo coldkey for the sandbox's current tax
 * year into a folder (every file of the zip, unpacked) and renders summary.pdf to PNG with `pdftoppm`
 * (Debian's poppler-utils), so a person can read the pack as a customer would.
 *
 *   npx tsx test/tools/pack-preview.ts [--out DIR] [--history-days N]
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPackFiles, PACK_FILE_NAMES } from '../../pipeline/tax/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/pack/pack-chain.js';
import { ukTaxYearOf } from '../../pipeline/time/uk-tax-year.js';
import { publishPackWorld } from '../tax/pack/pack-world.js';
import { ensurePoppler } from '../tax/pack/poppler.js';

const DAY_MS = 86_400_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'data/pack-preview' },
      'history-days': { type: 'string', default: '35' },
    },
  });
  const out = resolve(values.out!);
  const historyDays = Number(values['history-days']);
  const genesis = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - historyDays * DAY_MS);
  process.stderr.write(`publishing a sandbox world of ${historyDays} days (ten-minute blocks)...\n`);
  const world = await publishPackWorld({ genesis, historyDays, realClock: true });
  const chain = openPackChain(world.devnet.url);
  try {
    const taxYear = ukTaxYearOf(Date.now()).label;
    const paidAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const built = await buildPackFiles(
      {
        id: 'ord_preview',
        sku: 'tax-pack',
        packName: 'UK staking tax pack',
        taxYear,
        coldkeys: [world.devnet.demoColdkey],
        paidAt,
      },
      { store: world.store, chain: chain.reader },
    );
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    for (const name of PACK_FILE_NAMES) await writeFile(join(out, name), built.files.get(name)!);
    await writeFile(join(out, 'pack.zip'), built.zip);
    ensurePoppler();
    execFileSync('pdftoppm', ['-png', '-r', '80', join(out, 'summary.pdf'), join(out, 'summary')]);
    process.stdout.write(
      `pack of ${world.devnet.demoColdkey} for ${taxYear}: ${built.ledger.income.length} income rows, ` +
        `${built.ledger.gains.disposals.length} disposals, in ${out} (summary-*.png are the PDF's pages)\n`,
    );
  } finally {
    await chain.close();
    await world.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
