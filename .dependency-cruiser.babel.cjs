// How dependency-cruiser reads TypeScript here (.dependency-cruiser.cjs): TypeScript 7 has no JavaScript API, which
// dependency-cruiser's own TypeScript reader needs, so it strips types with Babel and reads the JavaScript left.
// Babel drops type-only imports, but an arrow is an arrow whether it carries a type or a value: the plugin below turns
// each `import type` / `export type ... from` (and an import whose names are all types) into a bare `import 'x'`
// first, so the rules see them too.
const keepTypeImports = ({ types: t }) => ({
  name: 'keep-type-imports-as-dependencies',
  visitor: {
    Program(path) {
      for (const statement of path.get('body')) {
        const node = statement.node;
        if (!node.source) continue;
        const typeOnly = node.importKind === 'type' || node.exportKind === 'type'
          || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
        if (typeOnly) statement.replaceWith(t.importDeclaration([], t.stringLiteral(node.source.value)));
      }
    },
  },
});

module.exports = {
  babelrc: false,
  configFile: false,
  plugins: [keepTypeImports],
  presets: [['@babel/preset-typescript', { onlyRemoveTypeImports: true }]],
};
