import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruiseLayers, repositoryRoot } from './cruise-layers.js';

/**
 * Each probe is a few files laid out like the repository, in a temp folder of its own (never in the
 * source tree, which other test files and `tsc` read meanwhile), with the project's tsconfig and
 * node_modules. The rule file is the real one.
 */
type Tree = Record<string, string>;

const made: string[] = [];

afterAll(async () => {
  await Promise.all(made.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function layOut(tree: Tree): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'layer-probe-'));
  made.push(root);
  await writeFile(join(root, 'tsconfig.json'), await readFile(join(repositoryRoot, 'tsconfig.json')));
  await symlink(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(tree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

async function violationsOf(tree: Tree): Promise<Array<{ rule: string; from: string; to: string }>> {
  const report = await cruiseLayers(await layOut(tree));
  return report.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

const leaf = 'export const value = 1;\n';

describe('the layer rules (.dependency-cruiser.cjs)', () => {
  it('fail when a test file imports another test file (whose tests would then run twice)', async () => {
    const found = await violationsOf({
      'test/gateway/emissions-routes.test.ts': leaf,
      'test/gateway/data-routes.test.ts':
        "import { value } from './emissions-routes.test.js';\nexport { value };\n",
    });
    expect(found).toEqual([
      {
        rule: 'not-to-test-file',
        from: 'test/gateway/data-routes.test.ts',
        to: 'test/gateway/emissions-routes.test.ts',
      },
    ]);
  });

  it('fail when test helpers import each other in a circle', async () => {
    const found = await violationsOf({
      'test/support/published-sandbox.ts':
        "export { expected } from '../snapshots/expected-from-truth.js';\nexport const value = 1;\n",
      'test/snapshots/expected-from-truth.ts':
        "import { value } from '../support/published-sandbox.js';\nexport const expected = value;\n",
    });
    // One violation per cycle, reported from the module where the cruise entered it.
    expect(found).toEqual([
      {
        rule: 'no-circular',
        from: expect.stringMatching(
          /^test\/(support\/published-sandbox|snapshots\/expected-from-truth)\.ts$/,
        ),
        to: expect.stringMatching(/^test\/(support\/published-sandbox|snapshots\/expected-from-truth)\.ts$/),
      },
    ]);
  });

  // One forbidden import per rule: the rule named must be among those reported for that edge.
  const forbidden: Array<{ rule: string; from: string; to: unknown; tree: Tree }> = [
    {
      rule: 'pipeline-not-to-gateway',
      from: 'pipeline/snapshots/render-run.ts',
      to: 'gateway/http/responses.ts',
      tree: {
        'pipeline/snapshots/render-run.ts': "import '../../gateway/http/responses.js';\n",
        'gateway/http/responses.ts': leaf,
      },
    },
    {
      rule: 'gateway-only-public-pipeline',
      from: 'gateway/routes/data.ts',
      to: 'pipeline/snapshots/exact-json.ts',
      tree: {
        'gateway/routes/data.ts': "import '../../pipeline/snapshots/exact-json.js';\n",
        'pipeline/snapshots/exact-json.ts': leaf,
      },
    },
    {
      rule: 'gateway-never-reaches-warehouse',
      from: 'gateway/state/sqlite-state.ts',
      // The probe's node_modules is a link to the repository's, so the resolved path has a prefix.
      to: expect.stringMatching(/(^|\/)node_modules\/@duckdb\/node-api\//),
      tree: { 'gateway/state/sqlite-state.ts': "import '@duckdb/node-api';\n" },
    },
    {
      // Through a module the gateway may import: only reachability sees it.
      rule: 'gateway-never-reaches-warehouse',
      from: 'gateway/routes/data.ts',
      to: 'pipeline/warehouse/open-duckdb.ts',
      tree: {
        'gateway/routes/data.ts': "import '../../pipeline/store/index.js';\n",
        'pipeline/store/index.ts': "import '../warehouse/open-duckdb.js';\n",
        'pipeline/warehouse/open-duckdb.ts': leaf,
      },
    },
    {
      rule: 'devnet-only-from-entry-points',
      from: 'pipeline/collect/collect.ts',
      to: 'pipeline/devnet/index.ts',
      tree: {
        'pipeline/collect/collect.ts': "import '../devnet/index.js';\n",
        'pipeline/devnet/index.ts': leaf,
      },
    },
    {
      rule: 'chain-not-to-devnet',
      from: 'pipeline/chain/rpc-client.ts',
      to: 'pipeline/devnet/index.ts',
      tree: {
        'pipeline/chain/rpc-client.ts': "import '../devnet/index.js';\n",
        'pipeline/devnet/index.ts': leaf,
      },
    },
    {
      // A type-only import counts: the warehouse would still depend on the snapshot builder.
      rule: 'warehouse-not-to-later-stages',
      from: 'pipeline/warehouse/snapshot-queries.ts',
      to: 'pipeline/snapshots/amounts.ts',
      tree: {
        'pipeline/warehouse/snapshot-queries.ts':
          "import type { PoolReserves } from '../snapshots/amounts.js';\nexport type Row = PoolReserves;\n",
        'pipeline/snapshots/amounts.ts': 'export interface PoolReserves {\n  tao: bigint;\n}\n',
      },
    },
    {
      // A type-only import counts: the chain search would still depend on the pound-valued income row.
      rule: 'tax-chain-record-not-to-rules-or-products',
      from: 'pipeline/tax/chain-record/actions/locate-sweep.ts',
      to: 'pipeline/tax/uk-rules/income-ledger.ts',
      tree: {
        'pipeline/tax/chain-record/actions/locate-sweep.ts':
          "import type { IncomeRow } from '../../uk-rules/income-ledger.js';\nexport type Fall = IncomeRow;\n",
        'pipeline/tax/uk-rules/income-ledger.ts': 'export interface IncomeRow {\n  gbp: string;\n}\n',
      },
    },
    {
      rule: 'tax-chain-record-not-to-rules-or-products',
      from: 'pipeline/tax/chain-record/coldkey-events.ts',
      to: 'pipeline/tax/products/pack/pack-inputs.ts',
      tree: {
        'pipeline/tax/chain-record/coldkey-events.ts': "import '../products/pack/pack-inputs.js';\n",
        'pipeline/tax/products/pack/pack-inputs.ts': leaf,
      },
    },
    {
      rule: 'tax-uk-rules-not-to-products',
      from: 'pipeline/tax/uk-rules/cgt/cgt-transactions.ts',
      to: 'pipeline/tax/products/own-records/customer-inputs.ts',
      tree: {
        'pipeline/tax/uk-rules/cgt/cgt-transactions.ts':
          "import '../../products/own-records/customer-inputs.js';\n",
        'pipeline/tax/products/own-records/customer-inputs.ts': leaf,
      },
    },
    {
      rule: 'source-not-to-test',
      from: 'gateway/app.ts',
      to: 'test/support/gateway-under-test.ts',
      tree: {
        'gateway/app.ts': "import '../test/support/gateway-under-test.js';\n",
        'test/support/gateway-under-test.ts': leaf,
      },
    },
    {
      rule: 'not-to-unresolvable',
      from: 'pipeline/chain/chain-reader.ts',
      to: './missing.js',
      tree: { 'pipeline/chain/chain-reader.ts': "import './missing.js';\n" },
    },
  ];

  for (const probe of forbidden) {
    it(`report ${probe.rule} for an import in ${probe.from}`, async () => {
      const found = await violationsOf(probe.tree);
      expect(found).toContainEqual({ rule: probe.rule, from: probe.from, to: probe.to });
    });
  }

  it('let every allowed import through', async () => {
    const found = await violationsOf({
      'pipeline/devnet/index.ts': "import '../chain/rpc-client.js';\n",
      'pipeline/devnet/start.ts': "import './index.js';\n",
      'pipeline/chain/rpc-client.ts': leaf,
      'pipeline/cli.ts': "import './devnet/index.js';\nimport './demo/demo-command.js';\n",
      'pipeline/demo/demo-command.ts': "import '../devnet/start.js';\n",
      'pipeline/config.ts': leaf,
      'pipeline/command-line.ts': leaf,
      'pipeline/contract/index.ts': leaf,
      'pipeline/store/index.ts': "import '../contract/index.js';\n",
      'pipeline/warehouse/open-duckdb.ts': "import '@duckdb/node-api';\nimport '../config.js';\n",
      'pipeline/snapshots/build-snapshots.ts':
        "import '../warehouse/open-duckdb.js';\nimport '../store/index.js';\nimport '../contract/index.js';\n",
      'pipeline/tax/chain-record/ledger-days.ts': leaf,
      'pipeline/tax/uk-rules/income-ledger.ts': "import '../chain-record/ledger-days.js';\n",
      'pipeline/tax/products/compute-tax-year.ts':
        "import '../chain-record/ledger-days.js';\nimport '../uk-rules/income-ledger.js';\n",
      'gateway/cli.ts': "import '../pipeline/config.js';\nimport '../pipeline/command-line.js';\n",
      'gateway/routes/data.ts':
        "import '../../pipeline/contract/index.js';\nimport '../../pipeline/store/index.js';\nimport '../../pipeline/chain/rpc-client.js';\nimport '../../pipeline/tax/products/compute-tax-year.js';\n",
      'test/support/published-sandbox.ts':
        "import '../../pipeline/devnet/index.js';\nimport '../../pipeline/snapshots/build-snapshots.js';\n",
      'test/gateway/data-routes.test.ts':
        "import '../support/published-sandbox.js';\nimport '../../gateway/routes/data.js';\nimport '../../pipeline/warehouse/open-duckdb.js';\n",
    });
    expect(found).toEqual([]);
  });

  it('hold for the repository as it is', async () => {
    const report = await cruiseLayers();
    // Enough edges to know the cruise resolved the real imports rather than seeing none.
    expect(report.dependenciesCruised).toBeGreaterThan(500);
    expect(report.violations.length, report.text).toBe(0);
  });
});
