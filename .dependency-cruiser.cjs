// The architecture, as arrows that may only point one way (README.md "Layout"). `npm run depcheck` checks
// it, and CI runs that next to the type-check (.ci/run). Each rule says why it exists.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'runtime-knows-no-commerce',
      severity: 'error',
      comment: 'runtime/ is the commerce-free engine every layer builds on: it must not reach up into the business '
        + 'logic (handlers/), the code generator (generator/), the schema history (migrations/), the entry points '
        + '(bin/) or one API\'s generated code (generated/). It is handed the API it serves when the process is '
        + 'composed (runtime/api-definition.ts, installed by wiring/compose.ts), so it can serve any spec.',
      from: { path: '^runtime/' },
      to: { path: '^(handlers|generator|migrations|bin|generated)/' },
    },
    {
      name: 'generator-is-not-an-entry-point',
      severity: 'error',
      comment: 'bin/ holds the entry points that wire layers together (they may import the generator); the generator '
        + 'importing bin/ back makes `npm run generate` load servers, CLIs and databases, and closes a loop.',
      from: { path: '^generator/' },
      to: { path: '^bin/' },
    },
    {
      name: 'generator-reads-runtime-contracts-only',
      severity: 'error',
      comment: 'The generator runs at build time and the server never loads it; of the runtime it may know the '
        + 'contracts it writes against (the changelog\'s shape, generated/openapi.json\'s and the deprecated fields\' list, which the runtime owns as the reader) and the two '
        + 'definitions the emitted code must agree with at run time (the input formats the validators compile, the '
        + 'last instant the schemas allow), none of its internals.',
      from: { path: '^generator/' },
      to: { path: '^runtime/', pathNot: '^runtime/(input-formats|instant|docs/changelog-data|openapi-store|deprecated-field)\\.ts$' },
    },
    {
      name: 'handlers-do-not-read-migrations',
      severity: 'error',
      comment: 'migrations/ are frozen history: a migration must keep doing what it did when it ran, so a handler '
        + 'that imports a constant from one ties today\'s behaviour to an old file. Shared constants live in '
        + 'handlers/ (the migration copies or imports them), never the other way round.',
      from: { path: '^handlers/' },
      to: { path: '^migrations/' },
    },
    {
      name: 'handlers-use-ports-not-sandbox',
      severity: 'error',
      comment: 'An area asks an outside system through the port it declares and wiring/compose.ts provides, so a '
        + 'real provider replaces a sandbox/ simulation by a setting without any handler changing.',
      from: { path: '^handlers/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'head-code-imports-no-converter',
      severity: 'error',
      comment: 'A version converter (spec/versions/<date>/<change>.ts) may import head code; head code importing one '
        + 'would tie today\'s behaviour to an old version\'s shape. What both need lives in handlers/.',
      from: { path: '^(handlers|runtime|sandbox|wiring|migrations)/' },
      to: { path: '^spec/versions/' },
    },
    {
      name: 'areas-meet-at-their-index',
      severity: 'error',
      comment: 'An area (handlers/<area>/) is used by other areas only through its index.ts, so what it offers is '
        + 'written in one place and the rest of it can change freely; handlers/shared/ is the kernel all areas import '
        + 'directly.',
      from: { path: '^handlers/([^/]+)/' },
      to: { path: '^handlers/(?!$1/|shared/)[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'the-sandbox-and-wiring-meet-areas-at-their-index',
      severity: 'error',
      comment: 'A simulated outside system (sandbox/) and the composition root (wiring/) use an area as other areas '
        + 'do, through its index.ts: the area\'s port, its task names, its tasks and routes, never its internals.',
      from: { path: '^(sandbox|wiring)/' },
      to: { path: '^handlers/(?!shared/)[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'examples-use-only-the-framework',
      severity: 'error',
      comment: 'examples/ proves the framework serves any spec: an example API is built from runtime/ and generator/ '
        + '(and the test harness) alone, so a commerce import there would hide exactly what it must show.',
      from: { path: '^examples/' },
      to: { path: '^(handlers|sandbox|wiring|migrations|bin|generated|spec)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A loop means neither side can be understood, tested or loaded without the other, and ES module loops '
        + 'see half-initialised bindings. Break one with a smaller shared module or by passing the value in. '
        + 'generated/ is not followed (below), so loops through it are not seen: routes and resources import the '
        + 'handlers, which import the generated types; none can pass through runtime/, which imports no generated/.',
      from: {},
      to: {
        circular: true,
        viaOnly: { pathNot: '^generated/' },
      },
    },
  ],
  options: {
    // The layers; test/ and bench/ may import anything.
    includeOnly: { path: '^(bin|generator|handlers|runtime|migrations|generated|sandbox|wiring|spec)/' },
    // generated/ is rebuilt by `npm run generate`, never edited, and large: its own imports are not read.
    doNotFollow: { path: ['node_modules', '^generated/'] },
    // TypeScript through Babel (see that file for why), type-only imports included.
    babelConfig: { fileName: '.dependency-cruiser.babel.cjs' },
    // An import names the emitted `.js`; dependency-cruiser then finds the `.ts` on disk, as tsc does.
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
