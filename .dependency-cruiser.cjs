// `npm run lint:deps` (and .ci/run): how the service's own modules may import each other. dependency-cruiser
// reads every import of packages/*/src and apps/{api,engine}/src, types included (a type-only cycle still
// makes two files that cannot be read apart). Tests are left out: a test may import whatever it checks.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'Files that import each other, directly or around a loop: move what both need down into a module of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-stays-at-the-bottom',
      comment:
        "core's shared/ is what every feature builds on (errors, clock, ids): it imports nothing of core outside shared/.",
      severity: 'error',
      from: { path: '^packages/core/src/shared/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/shared/' },
    },
    {
      name: 'audit-records-below-features',
      comment:
        "core's audit/ records the changes of every feature (accounts, keys, billing, workspaces …) in their transactions, so it imports nothing of core but shared/ and db/; reading the trails and retention by plan, which need accounts and workspaces, are audit-trails/.",
      severity: 'error',
      from: { path: '^packages/core/src/audit/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/(audit|shared|db)/' },
    },
    {
      name: 'composition-root-imported-from-above',
      comment:
        "core.ts wires every feature together: only core's index and its testing helpers import it, never a feature or the composition it assembles.",
      severity: 'error',
      from: { pathNot: '^packages/core/src/(index\\.ts|testing/)' },
      to: { path: '^packages/core/src/core\\.ts$' },
    },
    {
      name: 'packages-below-apps',
      comment: 'Apps are built from packages, never the other way round.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'core-below-engine',
      comment: 'The engine runs on core; core knows the engine only through the ports it defines.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^packages/engine/' },
    },
    {
      name: 'contracts-stand-alone',
      comment:
        'The wire types every client shares (the SDK, the CLI, the console) import no other workspace package.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^(packages|apps)/', pathNot: '^packages/contracts/' },
    },
    {
      name: 'product-without-test-helpers',
      comment:
        'A testing/ folder is for tests and benches: product code importing it would ship test-only code.',
      severity: 'error',
      from: { pathNot: '/testing/' },
      to: { path: '/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.test\\.ts$', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['verdict-source', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
    moduleSystems: ['es6'],
  },
};
