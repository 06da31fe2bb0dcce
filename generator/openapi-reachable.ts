// A version's OpenAPI document names only the components its operations reach. A resource no operation of the
// version answers (one whose operations are retired at it, or a shape only inlined into request bodies) would be a
// type without a use: code generators emit it, readers look for the operation that returns it, and lints flag it.
type Components = Record<string, Record<string, unknown>>;

const REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** `components` (kind -> name -> object) cut down to what `root` reaches through `$ref`s, directly or through other
 * components; kinds without references (security schemes) are kept whole, their order kept too. */
export function reachableComponents(root: unknown, components: Components, keepWhole: string[]): Components {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const ref = key === '$ref' && typeof value === 'string' ? REF.exec(value) : null;
      if (!ref) {
        visit(value);
        continue;
      }
      const id = `${ref[1]}/${ref[2]}`;
      if (reached.has(id)) continue;
      reached.add(id);
      visit(components[ref[1]]?.[ref[2]]);
    }
  };
  visit(root);
  return Object.fromEntries(Object.entries(components).map(([kind, named]) => [kind, keepWhole.includes(kind)
    ? named
    : Object.fromEntries(Object.entries(named).filter(([name]) => reached.has(`${kind}/${name}`)))]));
}
