// A v2 request's parameters, in Current names: path parameters from where the map says, the v2 query and body
// with v2 field names renamed, fixed body fields added. Errors the Current operation reports about a renamed
// parameter are given back under the v2 name the caller sent.
import { invalid, withCallersParam } from '../errors.js';
import type { CurrentInput, V2Route, V2Settings } from './route.js';

export const V2_PAGE_PARAMS = ['page', 'per'];

export interface V2Request {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

const baseName = (key: string) => (key.endsWith('[]') ? key.slice(0, -2) : key);

function read(source: string, v2: V2Request): string | undefined {
  const [where, name] = source.split('.');
  const value = where === 'path' ? v2.params[name] : v2.query[name];
  return Array.isArray(value) ? value[0] : value || undefined;
}

/** Parameters of a path in the spec's form (/x/{id}) or Koa's (/x/:id). */
export function currentPathParams(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}|:([a-z_]+)/g)].map((m) => m[1] ?? m[2]);
}

export function toCurrentInput(route: V2Route, settings: V2Settings, v2: V2Request, current = route.current, currentPath = route.currentPath): CurrentInput {
  const consumed = new Set([...Object.values(route.pathFrom), ...Object.values(route.queryFrom)]);
  // An adapter calls operations of its own choosing: it gets the v2 path parameters as they came, too.
  const path: Record<string, string> = route.adapter ? { ...v2.params } : {};
  for (const name of currentPathParams(currentPath)) {
    const source = route.pathFrom[name] ?? `path.${name}`;
    const value = read(source, v2);
    if (value === undefined) throw invalid(`${source.split('.')[1]} is required (it names the ${name} of ${current})`, source.split('.')[1]);
    path[name] = value;
  }
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(v2.query)) {
    const name = baseName(key);
    if (value === undefined || (route.paged && V2_PAGE_PARAMS.includes(name)) || consumed.has(`query.${name}`)) continue;
    const renamed = settings.renames[name] ?? name;
    query[key.endsWith('[]') ? `${renamed}[]` : renamed] = value;
  }
  for (const [name, source] of Object.entries(route.queryFrom)) {
    const value = read(source, v2);
    if (value !== undefined) query[name] = value;
  }
  let body: Record<string, unknown> | undefined;
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    const sent = v2.body === undefined ? {} : v2.body;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) throw invalid('The body must be a JSON object');
    body = {};
    for (const [name, value] of Object.entries(sent)) {
      if (route.select && name === route.select.field) continue;
      body[settings.renames[name] ?? name] = value;
    }
    Object.assign(body, route.bodyFixed);
  }
  return { path, query, body };
}

/** The v2 name of a Current parameter the caller sent under another name (for `error.param`). */
export function v2ParamName(route: V2Route, settings: V2Settings, param: string): string {
  const from = route.pathFrom[param] ?? route.queryFrom[param];
  if (from) return from.split('.')[1];
  const head = param.split('.')[0];
  const renamed = Object.entries(settings.renames).find(([, now]) => now === head)?.[0];
  return renamed ? renamed + param.slice(head.length) : param;
}

export const withV2Param = (e: unknown, route: V2Route, settings: V2Settings): unknown =>
  withCallersParam(e, (param) => v2ParamName(route, settings, param));
