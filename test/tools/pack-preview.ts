/**
 * `make pack-preview`: builds the tax pack of the sandbox's demo coldkey for a UK tax year (the current one
 * by default) into a folder (every file of the zip, unpacked) and renders summary.pdf to PNG with `pdftoppm`
 * (Debian's poppler-utils), so a person can read the pack as a customer would.
 *
 *   npx tsx test/tools/pack-preview.ts [--out DIR] [--history-days N] [--upgrade-days-ago N] [--old-world]
 *                                      [--tax-year YYYY/YY] [--records F...] [--addresses F] [--opening F]
 *
 * --out DIR               where the pack's files and the pages' PNGs go (default data/pack-preview; emptied first)
 * --history-days N        days of sandbox history before today (default 35), all of it on the real clock
 * --upgrade-days-ago N    the day (counted back from today, at noon UTC) the sandbox switches to its current
 *                         runtime (spec 425, docs/sandbox.md), default 12. The demo coldkey's life in that
 *                         runtime follows on the seven days after it (moves, stake transfer, recycle, fee in
 *                         alpha, auto-stake, miner incentive, root claim, lease dividends, hotkey swap,
 *                         dissolution with payout, coldkey swap), so with the defaults all of it falls in the
 *                         current tax year and the pack shows today's chain. It must come after the spec 393
 *                         upgrade in the middle of the history and leave the seven days before today.
 * --old-world             the world as it was before spec 425 (history ends with spec 393): no
 *                         life events, only stakes, unstakes and transfers.
 * --tax-year YYYY/YY      the pack 's UK tax year (default the current one). With a history that starts
 *                         before 6 April (say --history-days 240 in November), the current year's pack shows
 *                         its pools carried across tax years, and the year before's the 30-day rule read on
 *                         into the next year.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { UploadedFile } from '../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../pipeline/tax/products/own-records/read-customer-files.js';
import { buildPackFiles, PACK_FILE_NAMES } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { parseUkTaxYear, ukTaxYearOf } from '../../pipeline/time/uk-tax-year.js';
import { publishPackWorld } from '../tax/products/pack/pack-world.js';
import { ensurePoppler } from '../tax/products/pack/poppler.js';

const DAY_MS = 86_400_000;
const BLOCK_MS = 600_000;
/** Days the demo coldkey's life takes after the upgrade day (pipeline/devnet/world/spec-425-life.ts). */
const LIFE_DAYS = 7;

/** A bad option: said in one line, without a stack trace. */
class UsageError extends Error {}

/** Noon (UTC) of the day `daysAgo` days before today, as a block of a world whose genesis is `historyDays` ago. */
function spec425BlockOf(historyDays: number, daysAgo: number): number {
  const day = historyDays - daysAgo;
  if (!Number.isInteger(daysAgo) || day <= Math.floor(historyDays / 2) || daysAgo <= LIFE_DAYS) {
    throw new UsageError(
      `--upgrade-days-ago must be a whole number above ${LIFE_DAYS} (the life's days) and below ` +
        `${historyDays - Math.floor(historyDays / 2)} (after the spec 393 upgrade mid-history); got ${daysAgo}`,
    );
  }
  return (day * DAY_MS + DAY_MS / 2) / BLOCK_MS;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'data/pack-preview' },
      'history-days': { type: 'string', default: '35' },
      'upgrade-days-ago': { type: 'string', default: '12' },
      'old-world': { type: 'boolean', default: false },
      'tax-year': { type: 'string' },
      records: { type: 'string', multiple: true },
      addresses: { type: 'string' },
      opening: { type: 'string' },
    },
  });
  // A revised pack: the buyer's own files, read as the order page reads them.
  const uploads: UploadedFile[] = [];
  const upload = async (path: string, role: UploadedFile['role']) =>
    uploads.push({ name: basename(path), bytes: new Uint8Array(await readFile(path)), role });
  for (const path of values.records ?? []) await upload(path, 'records');
  if (values.addresses) await upload(values.addresses, 'addresses');
  if (values.opening) await upload(values.opening, 'opening');
  const customer = uploads.length > 0 ? readCustomerFiles(uploads) : undefined;
  const out = resolve(values.out!);
  const historyDays = Number(values['history-days']);
  if (!Number.isInteger(historyDays) || historyDays < 2) {
    throw new UsageError(
      `--history-days must be a whole number of days, at least 2; got ${values['history-days']}`,
    );
  }
  const genesis = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - historyDays * DAY_MS);
  const spec425Block = values['old-world']
    ? undefined
    : spec425BlockOf(historyDays, Number(values['upgrade-days-ago']));
  let taxYear: string;
  try {
    taxYear = values['tax-year'] ? parseUkTaxYear(values['tax-year']).label : ukTaxYearOf(Date.now()).label;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  ensurePoppler(); // before the minute of publishing, so a missing pdftoppm fails at once
  process.stderr.write(
    `publishing a sandbox world of ${historyDays} days (ten-minute blocks), ` +
      (spec425Block === undefined
        ? 'without spec 425...\n'
        : `spec 425 from block ${spec425Block} (${values['upgrade-days-ago']} days ago)...\n`),
  );
  const world = await publishPackWorld({
    genesis,
    historyDays,
    realClock: true,
    blockTimeMs: BLOCK_MS,
    ...(spec425Block === undefined ? {} : { spec425Block }),
  });
  const chain = openPackChain(world.devnet.url);
  try {
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
      customer,
    );
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    for (const name of PACK_FILE_NAMES) await writeFile(join(out, name), built.files.get(name)!);
    await writeFile(join(out, 'pack.zip'), built.zip);
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
  const text =
    error instanceof UsageError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`error: ${text}\n`);
  process.exit(1);
});
