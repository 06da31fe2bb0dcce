// Checks what a JSON Schema cannot: that names point at things that exist, and nothing is claimed twice.
import type { ApiSpec, FieldSpec } from './spec-types.js';

function* fieldRefs(fields: Record<string, FieldSpec> | undefined, at: string): Generator<[string, string]> {
  for (const [name, f] of Object.entries(fields ?? {})) {
    const here = `${at}.${name}`;
    if (f.ref) yield [f.ref, here];
    if (f.resource) yield [f.resource, here];
    if (f.fields) yield* fieldRefs(f.fields, here);
    if (f.items) yield* fieldRefs({ items: f.items }, here);
    if (f.of) yield* fieldRefs({ of: f.of }, here);
  }
}

function scopeKnown(spec: ApiSpec, scope: string): boolean {
  if (scope === '*') return true;
  if (scope.endsWith(':*')) return Object.keys(spec.scopes).some((s) => s.startsWith(scope.slice(0, -1)));
  return scope in spec.scopes;
}

export function checkReferences(spec: ApiSpec): string[] {
  const problems: string[] = [];
  const types = new Set([...Object.keys(spec.resources), ...Object.keys(spec.components)]);

  const prefixes = new Map<string, string>();
  for (const [name, r] of Object.entries(spec.resources)) {
    for (const [ref, at] of fieldRefs(r.fields, `resources.${name}`)) {
      if (!types.has(ref)) problems.push(`spec/areas/${r.area}.yaml: ${at} refers to ${ref}, which is not a resource or component`);
    }
    if (!r.prefix) continue;
    const other = prefixes.get(r.prefix);
    if (other) problems.push(`spec/areas/${r.area}.yaml: resources ${other} and ${name} both use the id prefix ${r.prefix}`);
    else prefixes.set(r.prefix, name);
  }
  for (const [name, c] of Object.entries(spec.components)) {
    for (const [ref, at] of fieldRefs(c.fields, `components.${name}`)) {
      if (!types.has(ref)) problems.push(`spec/api.yaml: ${at} refers to ${ref}, which is not a resource or component`);
    }
  }

  const handlers = new Map<string, string>();
  const routes = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const op of spec.operations) {
    const at = `${op.where}: operations.${op.id}`;
    if (ids.has(op.id)) problems.push(`${at}: the operation id ${op.id} is also used at ${ids.get(op.id)}`);
    ids.set(op.id, op.where);
    if (handlers.has(op.handler)) problems.push(`${at}: the handler ${op.handler} is also used by ${handlers.get(op.handler)}`);
    handlers.set(op.handler, op.id);
    const route = `${op.method} ${op.path.replace(/\{[a-z_]+\}/g, '{}')}`;
    if (routes.has(route)) problems.push(`${at}: ${op.method} ${op.path} is also declared by ${routes.get(route)}`);
    routes.set(route, op.id);

    for (const part of ['path_params', 'query', 'body'] as const) {
      for (const [ref, where] of fieldRefs(op[part], `${part}`)) {
        if (!types.has(ref)) problems.push(`${at}.${where} refers to ${ref}, which is not a resource or component`);
      }
    }
    const r = op.response;
    for (const ref of [r.type, r.deleted, r.list?.of].filter(Boolean) as string[]) {
      if (!types.has(ref)) problems.push(`${at}.response refers to ${ref}, which is not a resource or component`);
    }
    for (const [ref, where] of fieldRefs(r.fields, 'response')) {
      if (!types.has(ref)) problems.push(`${at}.${where} refers to ${ref}, which is not a resource or component`);
    }
    if (r.list && r.list.default_page_size > r.list.max_page_size) {
      problems.push(`${at}.response.list: default_page_size is larger than max_page_size`);
    }
    for (const scope of op.scopes) {
      if (!scopeKnown(spec, scope)) problems.push(`${at}.scopes names ${scope}, which is not in spec/api.yaml scopes`);
    }
    if (op.account) {
      const [part, name] = op.account.split('.') as ['path' | 'query' | 'body', string];
      const params = part === 'path' ? op.path_params : op[part];
      if (!params || !(name in params)) problems.push(`${at}.account reads ${op.account}, which the operation does not declare`);
    }
    if ((op.method === 'GET' || op.method === 'DELETE') && op.body) {
      problems.push(`${at}: a ${op.method} operation cannot take a body`);
    }
    if (r.list && op.method !== 'GET') problems.push(`${at}: only GET operations can return a list`);
  }

  for (const [name, role] of Object.entries(spec.roles)) {
    for (const scope of role.scopes) {
      if (!scopeKnown(spec, scope)) problems.push(`spec/api.yaml: roles.${name} grants ${scope}, which is not in scopes`);
    }
  }
  for (const scope of spec.user_scopes) {
    if (!scopeKnown(spec, scope)) problems.push(`spec/api.yaml: user_scopes names ${scope}, which is not in scopes`);
  }

  const dates = spec.versions.map((v) => v.date);
  for (let i = 1; i < dates.length; i++) {
    if (dates[i] >= dates[i - 1]) problems.push(`spec/versions.yaml: versions must be listed newest first; ${dates[i]} comes after ${dates[i - 1]}`);
  }
  for (const [name, flag] of Object.entries(spec.version_flags)) {
    if (!dates.includes(flag.since)) problems.push(`spec/versions.yaml: flags.${name}.since is ${flag.since}, which is not a listed version`);
  }
  return problems;
}
