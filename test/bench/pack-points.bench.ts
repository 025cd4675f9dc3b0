/**
 * `make bench`: the points to check a buyer of a big coldkey's pack reads. The 2025/26 packs of the demo
 * coldkey and of each big coldkey of the sandbox's mainnet world (docs/sandbox.md "Big coldkeys"), built by
 * the real pipeline against the shared bench world: for each, how many points points.csv holds, how many
 * lines the first view (the PDF's list, the order page's) shows, and that every point names its action.
 * Target: the first view is a screenful (`SCREENFUL_POINTS` points at most) and every point has an action.
 * With `SBM_POINTS_OUT=<folder>` each pack's summary.pdf and points.csv are written there to be looked at.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIG_COLDKEY_ROLES } from '../../pipeline/devnet/world/big-coldkeys.js';
import { buildPackFiles } from '../../pipeline/tax/products/pack/build-pack.js';
import { openPackChain } from '../../pipeline/tax/products/pack/pack-chain.js';
import { readPointsCsv } from '../../pipeline/tax/products/pack/points-csv.js';
import { pointsView, SCREENFUL_LINES } from '../../pipeline/tax/products/pack/points-view.js';
import { CgtDecimal } from '../../pipeline/tax/uk-rules/cgt/cgt-decimal.js';
import { bigPackWorld, startBigSandbox } from './big-pack-world.js';

export async function run(): Promise<void> {
  const world = await bigPackWorld();
  const out = process.env['SBM_POINTS_OUT'];
  const sandbox = await startBigSandbox(world, 0);
  const chain = openPackChain(sandbox.url);
  try {
    const reader = await chain.reader();
    const coldkeys = [
      { label: 'demo', coldkey: world.demoColdkey },
      ...BIG_COLDKEY_ROLES.map((role) => ({ label: role, coldkey: world.coldkeys[role] })),
    ];
    let failures = 0;
    for (const { label, coldkey } of coldkeys) {
      const started = performance.now();
      const built = await buildPackFiles(
        {
          id: `ord_points_${label}`,
          sku: 'uk-2025-26',
          packName: 'UK tax pack 2025/26',
          taxYear: '2025/26',
          coldkeys: [coldkey],
          paidAt: new Date('2026-04-10T09:00:00Z'),
        },
        { store: world.store, chain: async () => reader },
      );
      const seconds = (performance.now() - started) / 1000;
      const files = new Map(built.files);
      const csv = new TextDecoder().decode(files.get('points.csv'));
      const rows = readPointsCsv(csv) ?? [];
      const view = pointsView(rows, (row) => (row.gbp === '' ? null : new CgtDecimal(row.gbp)));
      const acted =
        rows.every((row) => row.action.trim() !== '') && view.groups.every((g) => g.action !== '');
      const passed = view.lines <= SCREENFUL_LINES && acted;
      failures += passed ? 0 : 1;
      process.stdout.write(
        `${label}: built in ${seconds.toFixed(1)} s; points.csv ${rows.length} points; first view ${view.lines} lines ` +
          `in ${view.groups.length} groups (${view.groups.map((g) => `${g.kind} ${g.shown.length}${g.rest ? `+${g.rest.points.length} merged` : ''}`).join(', ')}); ` +
          `every point with its action: ${acted ? 'yes' : 'NO'} (target ≤ ${SCREENFUL_LINES} lines, each with its action: ${passed ? 'PASS' : 'FAIL'})\n`,
      );
      if (out) {
        await mkdir(join(out, label), { recursive: true });
        for (const [name, bytes] of files) await writeFile(join(out, label, name), bytes);
      }
    }
    if (failures > 0)
      throw new Error(
        `${failures} pack(s) with more than a screenful of points or a point without its action`,
      );
  } finally {
    await chain.close();
    await sandbox.stop();
  }
}
