// TypeScript types for resources, components and every operation's input and output (head version).
import { Project, StructureKind, type InterfaceDeclarationStructure, type StatementStructures } from 'ts-morph';
import type { ApiSpec, FieldSpec, OperationSpec } from './spec-types.js';
import { hiddenFields } from './versions.js';
import { isServed } from './gone.js';

export function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

export function tsType(f: FieldSpec, input = false): string {
  let t: string;
  switch (f.type) {
    case 'string': case 'timestamp': case 'date': case 'email': case 'url': case 'id': case 'epoch_timestamp':
      t = 'string';
      break;
    case 'integer': case 'number':
      t = 'number';
      break;
    case 'boolean':
      t = 'boolean';
      break;
    case 'any':
      t = 'unknown';
      break;
    case 'money':
      t = 'Money';
      break;
    case 'metadata':
      t = 'Metadata';
      break;
    case 'enum':
      t = f.values!.map((v) => JSON.stringify(v)).join(' | ');
      break;
    case 'ref':
      t = f.ref!;
      break;
    case 'object':
      t = objectType(f.fields ?? {}, input);
      break;
    case 'array': {
      const inner = tsType(f.items!, input);
      t = /[|&]/.test(inner) ? `Array<${inner}>` : `${inner}[]`;
      break;
    }
    case 'map':
      t = `Record<string, ${tsType(f.of!, input)}>`;
      break;
  }
  return f.nullable ? `${t} | null` : t;
}

function key(name: string): string {
  return /^[a-z_][a-z0-9_]*$/i.test(name) ? name : JSON.stringify(name);
}

export function objectType(fields: Record<string, FieldSpec>, input: boolean): string {
  const entries = Object.entries(fields);
  if (!entries.length) return 'Record<string, never>';
  const optional = (f: FieldSpec) => (input && !f.required && f.default === undefined) || (!input && f.required === false);
  return `{ ${entries.map(([n, f]) => `${key(n)}${optional(f) ? '?' : ''}: ${tsType(f, input)}`).join('; ')} }`;
}

function outputType(op: OperationSpec): string {
  const r = op.response;
  if (r.list) {
    // Fields the head no longer shows (list_field_removed) stay optional here: the handler fills them for older callers.
    const extra = Object.entries(r.list.fields ?? {});
    return extra.length ? `Page<${r.list.of}> & { ${extra.map(([n, f]) => `${key(n)}?: ${tsType(f, false)}`).join('; ')} }` : `Page<${r.list.of}>`;
  }
  if (r.deleted) return 'Deleted';
  if (r.type) return r.type;
  return objectType(r.fields ?? {}, false);
}

function interfaceOf(name: string, fields: Record<string, FieldSpec>, input: boolean, docs?: string,
  hidden?: Set<string>): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: docs ? [docs] : undefined,
    properties: Object.entries(fields).map(([n, f]) => ({
      name: key(n),
      type: tsType(f, input),
      // Fields the head hides (field_hidden) are optional: only callers of older versions get them; an output field
      // marked required: false may be omitted.
      hasQuestionToken: (input && !f.required && f.default === undefined) || (!input && f.required === false) || !!hidden?.has(n),
      docs: f.description ? [f.description] : undefined,
    })),
  };
}

/** The file's statements are built as structures and added at once: ts-morph reparses the file on every insertion,
 * which, one declaration at a time, took two thirds of `npm run generate`. */
export function emitTypes(spec: ApiSpec, project: Project): string {
  const file = project.createSourceFile('types.ts', '', { overwrite: true });
  const statements: StatementStructures[] = [
    { kind: StructureKind.TypeAlias, name: 'Metadata', isExported: true, type: 'Record<string, string | number | boolean | null>' },
    {
      kind: StructureKind.Interface,
      name: 'Page',
      isExported: true,
      typeParameters: ['T'],
      properties: [{ name: 'data', type: 'T[]' }, { name: 'page_info', type: 'PageInfo' }],
    },
  ];
  const hidden = hiddenFields(spec);
  for (const [name, c] of Object.entries(spec.components)) statements.push(interfaceOf(name, c.fields, false, c.description, hidden.get(name)));
  for (const [name, r] of Object.entries(spec.resources)) statements.push(interfaceOf(name, r.fields, false, r.description, hidden.get(name)));

  for (const op of spec.operations.filter(isServed)) {
    const name = pascal(op.id);
    statements.push({
      kind: StructureKind.Interface,
      name: `${name}Input`,
      isExported: true,
      docs: [`${op.method} ${op.path}: ${op.summary}`],
      properties: [
        { name: 'path', type: objectType(op.path_params, true) },
        { name: 'query', type: objectType(op.query, true) },
        { name: 'body', type: op.body ? objectType(op.body, true) : 'undefined' },
      ],
    });
    statements.push({ kind: StructureKind.TypeAlias, name: `${name}Output`, isExported: true, type: outputType(op) });
  }
  statements.push({
    kind: StructureKind.Interface,
    name: 'Operations',
    isExported: true,
    properties: spec.operations.filter(isServed).map((op) => ({
      name: op.id,
      type: `{ input: ${pascal(op.id)}Input; output: ${pascal(op.id)}Output }`,
    })),
  });
  file.addStatements(statements);
  return `// Generated by \`npm run generate\` from spec/. Do not edit.\n${file.getFullText()}`;
}
