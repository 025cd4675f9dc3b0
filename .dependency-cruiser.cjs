/**
 * The rules that keep the layers apart (README "Architecture", DESIGN.md "Layout").
 * `make deps` checks them over pipeline/, gateway/ and test/; `make test` runs it before the unit tests,
 * and test/architecture/layer-rules.test.ts proves each rule fires on a forbidden import.
 * Paths are relative to the folder the check runs in (the repository root).
 */

// The stages that use the warehouse; the warehouse is below them and must not reach up into them.
const stagesAboveWarehouse =
  '^pipeline/(collect|claims|prices|snapshots|emissions|daily|demo|yields|status)/|^pipeline/(cli|command-groups)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'pipeline-not-to-gateway',
      comment:
        'The pipeline produces data and the gateway serves it; the pipeline runs (and is tested) without any ' +
        'gateway code, so nothing under pipeline/ may import gateway/.',
      severity: 'error',
      from: { path: '^pipeline/' },
      to: { path: '^gateway/' },
    },
    {
      name: 'gateway-only-public-pipeline',
      comment:
        'DESIGN: the gateway may import the public modules of pipeline/ (contract, store, chain, tax), and the ' +
        'two pure base modules everything builds on (time: UTC days and the UK tax year; amounts: exact RAO), ' +
        'nothing deeper. Two entry-point helpers are allowed as named exceptions: config.ts (the shared env readers) ' +
        'and command-line.ts (runProgram, the one way a CLI turns failures into exit codes).',
      severity: 'error',
      from: { path: '^gateway/' },
      to: {
        path: '^pipeline/',
        pathNot: [
          '^pipeline/(contract|store|chain|tax|time|amounts)/',
          '^pipeline/(config|command-line)\\.ts$',
        ],
      },
    },
    {
      name: 'gateway-never-reaches-warehouse',
      comment:
        'The gateway (and the pack fulfilment that runs beside it) reads what the pipeline published, never ' +
        'the DuckDB file: not directly, and not through any module it imports.',
      severity: 'error',
      from: { path: '^gateway/' },
      // Unanchored: the rule test links node_modules into temp trees, where resolved paths carry a prefix.
      to: { path: ['(^|/)node_modules/@duckdb/', '^pipeline/warehouse/'], reachable: true },
    },
    {
      name: 'devnet-only-from-entry-points',
      comment:
        'The sandbox chain is a stand-in for a real node, started by the command line, the demo and the ' +
        'tests. Production code reaches a chain only through a node URL, so nothing else imports devnet/.',
      severity: 'error',
      from: {
        pathNot: [
          '^pipeline/cli\\.ts$',
          '^pipeline/command-groups\\.ts$',
          '^pipeline/demo/',
          '^pipeline/devnet/',
          '^test/',
        ],
      },
      to: { path: '^pipeline/devnet/' },
    },
    {
      name: 'chain-not-to-devnet',
      comment:
        'The chain reader talks to any node (mainnet or the sandbox) over the same wire; importing the ' +
        'sandbox would let it depend on something mainnet does not have.',
      severity: 'error',
      from: { path: '^pipeline/chain/' },
      to: { path: '^pipeline/devnet/' },
    },
    {
      name: 'warehouse-not-to-later-stages',
      comment:
        'The warehouse (schema, loads, queries) sits below the stages that fill and read it; if it imports ' +
        'one of them, the layers tangle and a change in a builder reaches the schema.',
      severity: 'error',
      from: { path: '^pipeline/warehouse/' },
      to: { path: stagesAboveWarehouse },
    },
    {
      name: 'tax-chain-record-not-to-rules-or-products',
      comment:
        'pipeline/tax is three layers, each importing only from the ones below it: chain-record/ (what ' +
        'happened to a coldkey on chain, in RAO and blocks), uk-rules/ (pounds at receipt, UK days and tax ' +
        "years, income, CGT matching and pools) and products/ (the free check, the pack, the buyer's own " +
        'records). The chain record knows no pounds and no product: it holds for any tax rules built on it.',
      severity: 'error',
      from: { path: '^pipeline/tax/chain-record/' },
      to: { path: '^pipeline/tax/(uk-rules|products)/' },
    },
    {
      name: 'tax-uk-rules-not-to-products',
      comment:
        'The UK rules (pipeline/tax/uk-rules/) compute income and gains from the chain record for any product; ' +
        "a product (the check, the pack, the buyer's records in pipeline/tax/products/) uses them, never the reverse.",
      severity: 'error',
      from: { path: '^pipeline/tax/uk-rules/' },
      to: { path: '^pipeline/tax/products/' },
    },
    {
      name: 'source-not-to-test',
      comment: 'Tests may import anything; shipped code may not depend on test support.',
      severity: 'error',
      from: { path: '^(pipeline|gateway)/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-test-file',
      comment:
        'Importing a *.test.ts file registers its tests again in the importer, so they run twice; shared ' +
        'helpers belong in a plain module (test/support/ or beside the tests).',
      severity: 'error',
      from: {},
      to: { path: '\\.test\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle means neither module can be understood (or loaded, or tested) without the other; ' +
        'move the shared part into a module both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import must resolve to a file or an installed package; this also guards the check itself: ' +
        'if resolution broke, the rules above would see no edges and pass silently.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a layer that needs another's types depends on it all the same.
    tsPreCompilationDeps: true,
    // `.js` specifiers in our ESM TypeScript resolve to the `.ts` files through the tsconfig.
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
