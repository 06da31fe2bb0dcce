// spec/v2.yaml -> a checked V2Map: the format (v2-meta-schema.ts), then what a schema cannot say: each named
// Current operation exists, every Current path parameter has a v2 source, no route twice. (An adapter is imported
// by generated/v2-routes.ts from handlers/v2/<adapter>.ts, so `npm run typecheck` fails when one is missing.)
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import Ajv2019 from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { v2FileSchema } from './v2-meta-schema.js';
import { explainErrors } from './explain-errors.js';
import { locate, readSpecFile, SpecError } from './spec-source.js';
import type { ApiSpec, OperationSpec } from './spec-types.js';

export interface V2RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** the v2 path with {params}, relative to base_path */
  path: string;
  current: string;
  /** Current path parameter -> `path.x` / `query.x` of the v2 request */
  path_from: Record<string, string>;
  query_from: Record<string, string>;
  body_fixed: Record<string, unknown>;
  select: { by: string; operations: Record<string, string> } | null;
  adapter: string | null;
  also: string[];
  sunset: string | null;
  note: string | null;
}

export interface V2Map {
  base_path: string;
  deprecated_at: string;
  render_version: string;
  guide_path: string;
  max_listed_items: number;
  renames: Record<string, string>;
  routes: V2RouteSpec[];
}

const paramsOf = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

export function loadV2Map(root: string, spec: ApiSpec): V2Map {
  const file = join(root, 'spec', 'v2.yaml');
  if (!existsSync(file)) throw new SpecError([`spec/v2.yaml: missing; the spec needs this file (the v2 route map)`]);
  const source = readSpecFile(root, file);
  const ajv = new Ajv2019.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(v2FileSchema);
  if (!validate(source.data)) throw new SpecError(explainErrors(source, validate.errors ?? []));
  const raw = source.data as Record<string, any>;
  const problems: string[] = [];
  const ops = new Map<string, OperationSpec>(spec.operations.filter((o) => !o.gone).map((o) => [o.id, o]));
  const seen = new Set<string>();
  const routes: V2RouteSpec[] = (raw.routes as any[]).map((r, i) => {
    const at = (...path: (string | number)[]) => locate(source, ['routes', i, ...path]);
    const [method, path] = (r.route as string).split(' ') as [V2RouteSpec['method'], string];
    if (seen.has(r.route)) problems.push(`${at('route')}: the v2 route ${r.route} is mapped twice`);
    seen.add(r.route);
    const named: [string, (string | number)[]][] = [[r.current, ['current']]];
    for (const [value, id] of Object.entries(r.select?.operations ?? {})) named.push([id as string, ['select', 'operations', value]]);
    (r.also ?? []).forEach((id: string, n: number) => named.push([id, ['also', n]]));
    for (const [id, where] of named) {
      if (!ops.has(id)) problems.push(`${at(...where)}: ${r.route} maps to the Current operation ${id}, which does not exist`);
    }
    const v2Params = paramsOf(path);
    const pathFrom: Record<string, string> = { ...(r.path ?? {}) };
    for (const [name, from] of [...Object.entries(pathFrom), ...Object.entries(r.query ?? {})]) {
      const [where, param] = (from as string).split('.');
      if (where === 'path' && !v2Params.includes(param)) {
        problems.push(`${at()}: ${r.route} reads ${from} for ${name}, but its path has no {${param}}`);
      }
    }
    // Every Current operation the route calls directly must get each of its path parameters from somewhere.
    const direct = [r.current, ...Object.values(r.select?.operations ?? {})] as string[];
    for (const id of r.adapter ? [] : direct) {
      for (const name of paramsOf(ops.get(id)?.path ?? '')) {
        if (!(name in pathFrom) && !v2Params.includes(name)) {
          problems.push(`${at('current')}: ${id} needs the path parameter ${name}; ${r.route} has no {${name}} and maps none to it`);
        }
      }
    }
    return {
      method, path, current: r.current, path_from: pathFrom, query_from: r.query ?? {}, body_fixed: r.body ?? {},
      select: r.select ?? null, adapter: r.adapter ?? null, also: r.also ?? [], sunset: r.sunset ?? null, note: r.note ?? null,
    };
  });
  if (!spec.versions.some((v) => v.date === raw.render_version)) {
    problems.push(`${locate(source, ['render_version'])}: render_version ${raw.render_version} is not a version in spec/versions/`);
  }
  if (raw.base_path === spec.info.base_path) problems.push(`${locate(source, ['base_path'])}: base_path must differ from the Current API's ${spec.info.base_path}`);
  if (problems.length) throw new SpecError(problems);
  return {
    base_path: raw.base_path, deprecated_at: raw.deprecated_at, render_version: raw.render_version,
    guide_path: raw.guide_path, max_listed_items: raw.max_listed_items, renames: raw.renames ?? {}, routes,
  };
}
