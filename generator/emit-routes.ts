// The operation table the runtime mounts: one entry per operation with its handler, its rules and,
// per version at which it exists, the precompiled validators for that version's input shape.
import { Project, VariableDeclarationKind } from 'ts-morph';
import type { ApiSpec, OperationSpec } from './spec-types.js';
import type { EmittedValidators } from './emit-validators.js';
import type { VersionView } from './versions.js';
import { isServed } from './gone.js';
import { responseDowngrader, type EmittedTransformers } from './emit-transformers.js';

/** Literal segments sort before parameters, so /accounts/me wins over /accounts/{id}. */
function routeOrder(a: OperationSpec, b: OperationSpec): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith('{');
    const pb = sb[i].startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  if (sa.length !== sb.length) return sa.length - sb.length;
  return a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
}

export function koaPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}

export function emitRoutes(spec: ApiSpec, views: VersionView[], validators: EmittedValidators, transformers: EmittedTransformers, project: Project,
  shownHidden: Record<string, Record<string, string[]>> = {}): string {
  const file = project.createSourceFile('routes.ts', '', { overwrite: true });
  const ops = [...spec.operations].sort(routeOrder);
  const live = spec.operations.filter(isServed);
  // Plain operations' handlers are generated (plain-operations.ts); the others are written in handlers/.
  const plain = live.filter((o) => o.plain).map((o) => o.id).sort();
  // Added at once: ts-morph reparses the file on every insertion.
  file.addImportDeclarations([
    { isTypeOnly: true, moduleSpecifier: '../runtime/operation.js', namedImports: ['OperationDefinition'] },
    { moduleSpecifier: './validators-params.js', namespaceImport: 'params' },
    { moduleSpecifier: './validators-body.js', namespaceImport: 'body' },
    { moduleSpecifier: './transformers.js', namespaceImport: 'transformers' },
    ...(plain.length ? [{ moduleSpecifier: './plain-operations.js', namedImports: plain }] : []),
    // An alias (same_as) is bound to its target's handler, imported for the target.
    ...live.filter((o) => !o.plain && !o.same_as).sort((a, b) => (a.handler < b.handler ? -1 : 1))
      .map((op) => ({ moduleSpecifier: `../handlers/${op.handler}.js`, namedImports: [op.id] })),
  ]);
  // An operation that moved is mounted at each path it has had, each serving only the versions that used it.
  const pathAt = (op: OperationSpec, date: string) => views.find((v) => v.date === date)?.operations.find((o) => o.id === op.id)?.path ?? op.path;
  const entries = ops.flatMap((op) => {
    // A retired operation is served at the versions before its `since` when it declares its shape (generator/gone.ts);
    // from `since` on (and at every version, without its shape) the runtime answers 410.
    const dates = Object.keys(validators.byVersion).filter((date) => validators.byVersion[date][op.id]);
    const paths = [...new Set([op.path, ...dates.map((d) => pathAt(op, d))])];
    return paths.map((path) => routeEntry(op, path, dates.filter((d) => pathAt(op, d) === path)));
  });
  /** A deprecated operation's successor link, per version at which the successor's path is served there (a link to a
   * path the caller's version does not have would not be followable): the query names that differ between the
   * deprecated operation's callers and the successor's at that version (caller's -> successor's). */
  function successorAt(op: OperationSpec, dates: string[]): { successorAt?: Record<string, Record<string, string>> } {
    const successor = op.deprecated?.successor;
    if (!successor) return {};
    const at: Record<string, Record<string, string>> = {};
    for (const date of dates) {
      const there = views.find((v) => v.date === date)?.operations.filter((o) => o.path === successor && validators.byVersion[date]?.[o.id]) ?? [];
      if (!there.length) continue;
      const next = there.find((o) => o.method === op.method) ?? there.find((o) => o.method === 'GET') ?? there[0];
      const mine = transformers.olderNames[op.id]?.[date] ?? {};
      const theirs = transformers.olderNames[next.id]?.[date] ?? {};
      const renames: Record<string, string> = {};
      for (const head of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
        const sent = mine[head] ?? head;
        const taken = theirs[head] ?? head;
        if (sent !== taken) renames[sent] = taken;
      }
      at[date] = renames;
    }
    return { successorAt: at };
  }
  function routeEntry(op: OperationSpec, path: string, dates: string[]): string {
    const versions = dates.map((date) => {
        const v = validators.byVersion[date][op.id];
        const up = transformers.up[op.id]?.[date];
        const down = responseDowngrader(op, date, transformers);
        const status = views.find((view) => view.date === date)?.operations.find((o) => o.id === op.id)?.response.status;
        // A response of a schema with fields the head hides, at a version that shows them: the runtime fills them.
        const schema = op.response.list?.of ?? op.response.type;
        const fill = schema && shownHidden[schema]?.[date] ? `, fill: { schema: ${JSON.stringify(schema)}, list: ${!!op.response.list} }` : '';
        return `${JSON.stringify(date)}: { path: params.${v.path}, query: params.${v.query}, body: ${v.body ? `body.${v.body}` : 'null'}, ` +
          `upgrade: ${up ? `transformers.${up}` : 'null'}, downgrade: ${down ?? 'null'}${status !== op.response.status ? `, status: ${status}` : ''}` +
          `${transformers.olderNames[op.id]?.[date] ? `, olderNames: ${JSON.stringify(transformers.olderNames[op.id][date])}` : ''}${fill} }`;
      });
    const account = op.account
      ? `{ from: ${JSON.stringify(op.account.split('.')[0])}, name: ${JSON.stringify(op.account.split('.')[1])} }`
      : 'null';
    const list = op.response.list
      ? `{ defaultPageSize: ${op.response.list.default_page_size}, maxPageSize: ${op.response.list.max_page_size} }`
      : 'null';
    return `{
    id: ${JSON.stringify(op.id)},
    method: ${JSON.stringify(op.method)},
    path: ${JSON.stringify(koaPath(path))},${secretParams(op)}
    auth: ${JSON.stringify(op.auth)},
    scopes: ${JSON.stringify(op.scopes)},
    account: ${account},
    idempotent: ${op.idempotent},
    status: ${op.response.status},
    list: ${list},
    deprecated: ${op.deprecated ? JSON.stringify({ ...op.deprecated, ...successorAt(op, dates) }) : 'null'},${pathAliases(spec, op)}
    gone: ${op.gone ? JSON.stringify({ since: op.gone.since, successor: op.gone.successor }) : 'null'},
    versions: { ${versions.join(', ')} },
    handler: ${isServed(op) ? op.same_as ?? op.id : 'null'},
  }`;
  }
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: 'operations', type: 'OperationDefinition[]', initializer: `[\n  ${entries.join(',\n  ')},\n]` }],
  });
  file.formatText({ indentSize: 2 });
  return `// Generated by \`npm run generate\` from spec/. Do not edit.\n${file.getFullText()}`;
}

/** The operation's path parameters declared `secret: true`, as a property of its definition (none: nothing). */
function secretParams(op: OperationSpec): string {
  const names = Object.entries(op.path_params).filter(([, f]) => f.secret).map(([name]) => name);
  return names.length ? `\n    secretParams: ${JSON.stringify(names)},` : '';
}

/** The operation's path parameters with other names (`aliases`), as a property of its definition (none: nothing);
 * a lookup carries the prefix that marks a value as an id. */
function pathAliases(spec: ApiSpec, op: OperationSpec): string {
  const declared = Object.entries(op.path_params).filter(([, f]) => f.aliases);
  if (!declared.length) return '';
  const aliases = Object.fromEntries(declared.map(([name, f]) => [name, {
    ...f.aliases, ...(f.aliases!.lookup ? { prefix: spec.resources[f.resource!]?.prefix ?? '' } : {}),
  }]));
  return `\n    pathAliases: ${JSON.stringify(aliases)},`;
}

/** The call a scaffold throws with; a handler file still containing it is not written. */
export const SCAFFOLD_MARK = 'notWrittenYet';

export const HOOK_TYPE = { retrieve: 'RetrieveHook', list: 'ListHook', delete: 'DeleteHook', update: 'UpdateHook', transition: 'TransitionHook', create: 'CreateHook', action: 'ActionHook' } as const;

/** The file a plain operation with a hook starts from: the hook, typed for its kind. */
export function hookScaffold(op: OperationSpec): string {
  const up = '../'.repeat(op.handler.split('/').length);
  const type = HOOK_TYPE[op.plain!.kind as keyof typeof HOOK_TYPE]; // a summary takes no hook (plain-operations.ts)
  return `import { ${SCAFFOLD_MARK} } from '${up}runtime/handler.js';
import type { ${type} } from '${up}generated/plain-hooks.js';

/** ${op.method} ${op.path} (plain ${op.plain!.kind}): ${op.plain!.hook} */
export const ${op.id}: ${type}<'${op.id}'> = async () => {
  // The rule the spec's plain.hook describes goes here; the runtime does the rest of the operation.
  throw ${SCAFFOLD_MARK}('${op.id}');
};
`;
}

export function handlerScaffold(op: OperationSpec): string {
  const depth = op.handler.split('/').length;
  const up = '../'.repeat(depth);
  return `import { ${SCAFFOLD_MARK}, type Handler } from '${up}generated/handler.js';

/** ${op.method} ${op.path}: ${op.summary} */
export const ${op.id}: Handler<'${op.id}'> = async (input, ctx) => {
  // Business logic goes here: input is validated and typed; throw ApiError for business-rule failures.
  // \`npm run check\` fails while this scaffold's throw remains.
  throw ${SCAFFOLD_MARK}('${op.id}');
};
`;
}
