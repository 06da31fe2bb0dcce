// The architecture, as arrows that may only point one way (README.md "Layout"). `npm run depcheck` checks
// it, and CI runs that next to the type-check (.ci/run). Each rule says why it exists.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'runtime-knows-no-commerce',
      severity: 'error',
      comment: 'runtime/ is the commerce-free engine every layer builds on: it must not reach up into the business '
        + 'logic (handlers/), the code generator (generator/), the schema history (migrations/) or the entry points '
        + '(bin/). What it needs from them arrives as generated data (generated/, allowed for now) or is passed in.',
      from: { path: '^runtime/' },
      to: { path: '^(handlers|generator|migrations|bin)/' },
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
      name: 'handlers-do-not-read-migrations',
      severity: 'error',
      comment: 'migrations/ are frozen history: a migration must keep doing what it did when it ran, so a handler '
        + 'that imports a constant from one ties today\'s behaviour to an old file. Shared constants live in '
        + 'handlers/ (the migration copies or imports them), never the other way round.',
      from: { path: '^handlers/' },
      to: { path: '^migrations/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A loop means neither side can be understood, tested or loaded without the other, and ES module loops '
        + 'see half-initialised bindings. Break one with a smaller shared module or by passing the value in. '
        + 'generated/ is not followed (below), so loops through it are not seen: routes and resources import the '
        + 'handlers, which import the generated types. Known loop through it, to remove when runtime/ stops importing generated/: '
        + 'runtime/app.ts -> runtime/operation.ts -> runtime/plain/hidden-fields.ts -> generated/resources.ts -> '
        + 'handlers/payments/payment-fields.ts -> handlers/payments/receipts.ts -> runtime/app.ts (runtime/ -> '
        + 'generated/ is allowed for now; a later step removes it).',
      from: {},
      to: {
        circular: true,
        viaOnly: { pathNot: '^generated/' },
      },
    },
  ],
  options: {
    // The layers; test/ and bench/ may import anything.
    includeOnly: { path: '^(bin|generator|handlers|runtime|migrations|generated|sandbox|wiring)/' },
    // generated/ is rebuilt by `npm run generate`, never edited, and large: its own imports are not read.
    doNotFollow: { path: ['node_modules', '^generated/'] },
    // TypeScript through Babel (see that file for why), type-only imports included.
    babelConfig: { fileName: '.dependency-cruiser.babel.cjs' },
    // An import names the emitted `.js`; dependency-cruiser then finds the `.ts` on disk, as tsc does.
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
