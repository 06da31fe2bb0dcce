// Aliases: an operation declared `same_as: <operationId>` is served by that operation's handler (a deprecated route
// kept for its callers). It keeps its own route, scopes, versions and deprecation; only the handler is shared, so
// the handler must be able to take the alias's input and give the alias's response: what can be checked here is.
import type { Locator } from './check-references.js';
import { isServed } from './gone.js';
import { nearestName } from './nearest-name.js';
import type { ApiSpec, FieldSpec, OperationSpec } from './spec-types.js';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The schema a response carries, as the handler builds it (the status is the route's own). */
function responseShape(op: OperationSpec): unknown {
  const { type, deleted, fields, list } = op.response;
  return { type, deleted, fields, list: list && { of: list.of, fields: list.fields } };
}

function describeResponse(op: OperationSpec): string {
  const r = op.response;
  return r.list ? `a list of ${r.list.of}` : r.deleted ? `a deleted ${r.deleted}` : r.type ?? 'its own fields';
}

/** Why the target's handler cannot serve the alias's inputs, one sentence per part that differs. */
function inputProblems(alias: OperationSpec, target: OperationSpec): string[] {
  const problems: string[] = [];
  const aliasParams = Object.keys(alias.path_params).sort();
  const targetParams = Object.keys(target.path_params).sort();
  if (!same(aliasParams, targetParams) || aliasParams.some((name) => !same(alias.path_params[name], target.path_params[name]))) {
    const names = (params: string[]) => (params.length ? `{${params.join('}, {')}}` : 'none');
    problems.push(`its path parameters (${names(aliasParams)}) are not ${target.id}'s (${names(targetParams)})`);
  }
  for (const part of ['query', 'body'] as const) {
    const mine: Record<string, FieldSpec> = alias[part] ?? {};
    const theirs: Record<string, FieldSpec> = target[part] ?? {};
    for (const [name, f] of Object.entries(mine)) {
      if (!same(f, theirs[name])) problems.push(`it takes ${part}.${name}, which ${target.id} does not take in the same form`);
    }
    for (const [name, f] of Object.entries(theirs)) {
      if (f.required && !(name in mine)) problems.push(`${target.id} requires ${part}.${name}, which it does not take`);
    }
  }
  // The target's handler relies on the runtime having checked its account and scopes.
  if (alias.account !== target.account) problems.push(`its account is ${alias.account ?? 'not named'}, ${target.id}'s is ${target.account ?? 'not named'}`);
  const missing = target.scopes.filter((s) => !alias.scopes.includes(s));
  if (missing.length) problems.push(`it does not require ${missing.join(', ')}, which ${target.id} requires`);
  return problems;
}

/** Checks every `same_as` and points the alias's handler at its target's; problems name the alias's `same_as`. */
export function resolveAliases(spec: ApiSpec, at: Locator): string[] {
  const problems: string[] = [];
  const byId = new Map(spec.operations.map((op) => [op.id, op]));
  for (const alias of spec.operations.filter((op) => op.same_as)) {
    const where = at(`spec/areas/${alias.area}.yaml`, ['operations', alias.id, 'same_as']);
    const name = `operations.${alias.id}.same_as`;
    const target = byId.get(alias.same_as!);
    if (!target) {
      const near = nearestName(alias.same_as!, byId.keys());
      problems.push(`${where}: ${name} names ${alias.same_as}, which is not an operation${near ? `; did you mean ${near}?` : ''}`);
      continue;
    }
    if (target.same_as) {
      problems.push(`${where}: ${name} names ${target.id}, which is itself an alias (same_as ${target.same_as}); name ${target.same_as}`);
      continue;
    }
    if (!isServed(target)) {
      problems.push(`${where}: ${name} names ${target.id}, which is retired without its shape and has no handler`);
      continue;
    }
    // Without a `handler:` of its own, an operation's handler is <area>/<id> (load-spec.ts).
    const declares = alias.plain ? 'plain' : alias.handler !== `${alias.area}/${alias.id}` ? 'handler' : null;
    if (declares) {
      problems.push(`${where}: operations.${alias.id} declares ${declares} and same_as; an alias is served by its target's handler alone`);
      continue;
    }
    if (!same(responseShape(alias), responseShape(target))) {
      problems.push(`${where}: ${name}: ${alias.id} responds with ${describeResponse(alias)}, ${target.id} with ${describeResponse(target)}; an alias answers what its target answers`);
    }
    for (const p of inputProblems(alias, target)) problems.push(`${where}: ${name}: ${alias.id} cannot be served by ${target.id}'s handler: ${p}`);
    alias.handler = target.handler;
  }
  return problems;
}
