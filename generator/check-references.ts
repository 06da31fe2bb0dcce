// Checks what a JSON Schema cannot: that names point at things that exist, and nothing is claimed twice.
// Every problem carries the file:line:column of the node it is about.
import type { ApiSpec, FieldSpec } from './spec-types.js';

/** "file:line:col" of the node at a YAML path in a spec file; the file alone when the position is unknown. */
export type Locator = (file: string, path: (string | number)[], key?: boolean) => string;

type YamlPath = (string | number)[];

/** Every resource/component name a field refers to, with the field's dotted name and its YAML path. */
function* fieldRefs(fields: Record<string, FieldSpec> | undefined, at: string, path: YamlPath): Generator<[string, string, YamlPath]> {
  for (const [name, f] of Object.entries(fields ?? {})) {
    yield* refsOf(f, `${at}.${name}`, [...path, name]);
  }
}

function* refsOf(f: FieldSpec, here: string, path: YamlPath): Generator<[string, string, YamlPath]> {
  if (f.ref) yield [f.ref, here, [...path, 'ref']];
  if (f.resource) yield [f.resource, here, [...path, 'resource']];
  if (f.fields) yield* fieldRefs(f.fields, here, [...path, 'fields']);
  if (f.items) yield* refsOf(f.items, `${here}.items`, [...path, 'items']);
  if (f.of) yield* refsOf(f.of, `${here}.of`, [...path, 'of']);
}

function scopeKnown(spec: ApiSpec, scope: string): boolean {
  if (scope === '*') return true;
  if (scope.endsWith(':*')) return Object.keys(spec.scopes).some((s) => s.startsWith(scope.slice(0, -1)));
  return scope in spec.scopes;
}

export function checkReferences(spec: ApiSpec, locate: Locator = (file) => file): string[] {
  const problems: string[] = [];
  const types = new Set([...Object.keys(spec.resources), ...Object.keys(spec.components)]);
  const API = 'spec/api.yaml';
  const areaFile = (area: string) => `spec/areas/${area}.yaml`;

  const prefixes = new Map<string, string>();
  for (const [name, r] of Object.entries(spec.resources)) {
    const file = areaFile(r.area);
    for (const [ref, at, path] of fieldRefs(r.fields, `resources.${name}.fields`, ['resources', name, 'fields'])) {
      if (!types.has(ref)) problems.push(`${locate(file, path)}: ${at} refers to ${ref}, which is not a resource or component`);
    }
    if (!r.prefix) continue;
    const other = prefixes.get(r.prefix);
    if (other) {
      problems.push(`${locate(file, ['resources', name, 'prefix'])}: resources ${other} and ${name} both use the id prefix ${r.prefix}`);
    } else prefixes.set(r.prefix, name);
  }
  for (const [name, c] of Object.entries(spec.components)) {
    for (const [ref, at, path] of fieldRefs(c.fields, `components.${name}.fields`, ['components', name, 'fields'])) {
      if (!types.has(ref)) problems.push(`${locate(API, path)}: ${at} refers to ${ref}, which is not a resource or component`);
    }
  }

  const handlers = new Map<string, string>();
  const routes = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const op of spec.operations) {
    const file = areaFile(op.area);
    const node = (...path: YamlPath) => locate(file, ['operations', op.id, ...path]);
    const name = `operations.${op.id}`;
    if (ids.has(op.id)) problems.push(`${op.where}: ${name}: the operation id ${op.id} is also used at ${ids.get(op.id)}`);
    ids.set(op.id, op.where);
    if (op.gone && !spec.versions.some((v) => v.date === op.gone!.since)) {
      problems.push(`${node('gone', 'since')}: ${name}.gone.since is ${op.gone.since}, which is not a listed version`);
    }
    if (op.gone && !op.gone.shaped && op.plain) {
      problems.push(`${node('plain')}: ${name} is gone without its shape; declare its response (and inputs) to serve versions before ${op.gone.since}`);
    }
    // An alias (same_as) shares its target's handler on purpose (generator/aliases.ts).
    if (handlers.has(op.handler) && !op.same_as) {
      problems.push(`${node('handler')}: ${name}: the handler ${op.handler} is also used by ${handlers.get(op.handler)}`);
    }
    if (!op.same_as) handlers.set(op.handler, op.id);
    const route = `${op.method} ${op.path.replace(/\{[a-z_]+\}/g, '{}')}`;
    if (routes.has(route)) problems.push(`${node('path')}: ${name}: ${op.method} ${op.path} is also declared by ${routes.get(route)}`);
    routes.set(route, op.id);

    for (const part of ['path_params', 'query', 'body'] as const) {
      for (const [ref, at, path] of fieldRefs(op[part], `${name}.${part}`, [part])) {
        if (!types.has(ref)) problems.push(`${node(...path)}: ${at} refers to ${ref}, which is not a resource or component`);
      }
    }
    const r = op.response;
    const targets: [string | undefined, YamlPath][] = [[r.type, ['type']], [r.deleted, ['deleted']], [r.list?.of, ['list', 'of']]];
    for (const [ref, path] of targets) {
      if (ref && !types.has(ref)) {
        problems.push(`${node('response', ...path)}: ${name}.response.${path.join('.')} refers to ${ref}, which is not a resource or component`);
      }
    }
    for (const [ref, at, path] of fieldRefs(r.fields, `${name}.response.fields`, ['response', 'fields'])) {
      if (!types.has(ref)) problems.push(`${node(...path)}: ${at} refers to ${ref}, which is not a resource or component`);
    }
    if (r.list && r.list.default_page_size > r.list.max_page_size) {
      problems.push(`${node('response', 'list', 'default_page_size')}: ${name}.response.list: default_page_size is larger than max_page_size`);
    }
    op.scopes.forEach((scope, i) => {
      if (!scopeKnown(spec, scope)) problems.push(`${node('scopes', i)}: ${name}.scopes names ${scope}, which is not in spec/api.yaml scopes`);
    });
    if (op.account) {
      const [part, param] = op.account.split('.') as ['path' | 'query' | 'body', string];
      const params = part === 'path' ? op.path_params : op[part];
      if (!params || !(param in params)) {
        problems.push(`${node('account')}: ${name}.account reads ${op.account}, which the operation does not declare`);
      }
    }
    if ((op.method === 'GET' || op.method === 'DELETE') && op.body) {
      problems.push(`${locate(file, ['operations', op.id, 'body'], true)}: ${name}: a ${op.method} operation cannot take a body`);
    }
    if (r.list && op.method !== 'GET') problems.push(`${node('response', 'list')}: ${name}: only GET operations can return a list`);
  }

  for (const [name, role] of Object.entries(spec.roles)) {
    role.scopes.forEach((scope, i) => {
      if (!scopeKnown(spec, scope)) problems.push(`${locate(API, ['roles', name, 'scopes', i])}: roles.${name} grants ${scope}, which is not in scopes`);
    });
  }
  spec.user_scopes.forEach((scope, i) => {
    if (!scopeKnown(spec, scope)) problems.push(`${locate(API, ['user_scopes', i])}: user_scopes names ${scope}, which is not in scopes`);
  });

  // Version folders are read newest first by date (generator/load-versions.ts), and a flag's since is its folder's date.
  spec.versions.forEach((version) => {
    version.changes.forEach((change, i) => {
      const file = change.file ?? 'spec/versions';
      const named = `${version.date} change ${change.name ?? i + 1}`;
      (change.instructions ?? []).forEach((instruction, ii) => {
        const gone = (instruction as { endpoint_gone?: { operation: string } }).endpoint_gone;
        if (!gone) return;
        const op = spec.operations.find((o) => o.id === gone.operation);
        const at = `${locate(file, ['instructions', ii])}: ${named}`;
        if (!op?.gone) problems.push(`${at}: endpoint_gone names ${gone.operation}, which is not an operation declared gone`);
        else if (op.gone.since !== version.date) problems.push(`${at}: endpoint_gone names ${gone.operation}, which is gone since ${op.gone.since}, not ${version.date}`);
      });
      (change.flags ?? []).forEach((flag, fi) => {
        const declared = spec.version_flags[flag];
        const at = `${locate(file, ['flags', fi])}: ${named}`;
        if (!declared) problems.push(`${at} names the flag ${flag}, which no version.yaml declares under flags`);
        else if (declared.since !== version.date) problems.push(`${at} names the flag ${flag}, which is declared since ${declared.since}, not ${version.date}`);
      });
    });
  });
  for (const [name, event] of Object.entries(spec.events)) {
    const at = event.area ? locate(areaFile(event.area), ['events', name, 'schema']) : 'spec/areas';
    if (!types.has(event.schema)) problems.push(`${at}: events.${name} carries ${event.schema}, which is not a resource or component`);
  }
  for (const [name, machine] of Object.entries(spec.state_machines)) {
    const at = `${locate(areaFile(machine.area), ['state_machines', name])}: state_machines.${name}`;
    const resource = spec.resources[name];
    const field = resource?.fields[machine.field];
    if (!resource) {
      problems.push(`${at} names no resource; a state machine is named after the resource whose lifecycle it is`);
      continue;
    }
    if (!field || field.type !== 'enum') {
      problems.push(`${at}.field is ${machine.field}, which is not an enum field of ${name}`);
      continue;
    }
    for (const [action, t] of Object.entries(machine.transitions)) {
      for (const state of [...t.from, t.to]) {
        if (!field.values!.includes(state)) {
          problems.push(`${at}.transitions.${action} names the state ${state}, which ${name}.${machine.field} does not have (${field.values!.join(', ')})`);
        }
      }
    }
  }
  return problems;
}
