// generated/openapi.json from every version's OpenAPI document (generator/emit-openapi.ts): each operation and each
// component written once per distinct shape, and each version as the list of which shape it uses (the format and its
// reader: runtime/openapi-store.ts). An edit of one field then changes the lines of the parts holding that field,
// once per shape, where twelve full documents changed it twelve times.
import { assembleDocument, VERSION_MARK, type OpenApiStore } from '../runtime/openapi-store.js';

type Json = any;

function marked(part: Json, version: string): Json {
  if (part === version) return VERSION_MARK;
  if (part === VERSION_MARK) throw new Error(`an OpenAPI document holds the string ${VERSION_MARK}, which generated/openapi.json reserves`);
  if (Array.isArray(part)) return part.map((p) => marked(p, version));
  if (part && typeof part === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(part)) out[k] = marked(v, version);
    return out;
  }
  return part;
}

/** The key of `part` among `variants` (an equal one's, else a new one named `version`). */
function variantOf(variants: Record<string, Json>, part: Json, version: string): string {
  const text = JSON.stringify(part);
  for (const [key, known] of Object.entries(variants)) if (JSON.stringify(known) === text) return key;
  variants[version] = part;
  return version;
}

const sortedKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));

/** 2-space JSON, except that a version's row for a path (method -> variant) is written on one line. */
function format(value: Json, at: string[] = [], indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const oneLine = at.length === 4 && at[0] === 'versions' && at[2] === 'paths';
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (oneLine || entries.length === 0) return JSON.stringify(value);
  const inner = indent + '  ';
  const lines = entries.map(([k, v]) => `${inner}${Array.isArray(value) ? '' : `${JSON.stringify(k)}: `}${format(v, [...at, k], inner)}`);
  return Array.isArray(value) ? `[\n${lines.join(',\n')}\n${indent}]` : `{\n${lines.join(',\n')}\n${indent}}`;
}

/** `documents`: each version's document text, by date. */
export function emitOpenApiStore(documents: Record<string, string>): string {
  const store: OpenApiStore = { versions: {}, paths: {}, components: {}, tags: {} };
  const dates = Object.keys(documents).sort();
  for (const version of dates) {
    const doc = JSON.parse(documents[version]) as Json;
    const skeleton: Json = {};
    for (const [key, value] of Object.entries<Json>(doc)) {
      if (key === 'paths') {
        skeleton.paths = {};
        for (const [path, methods] of Object.entries<Json>(value)) {
          skeleton.paths[path] = {};
          for (const [method, operation] of Object.entries(methods)) {
            skeleton.paths[path][method] = variantOf((store.paths[path] ??= {})[method] ??= {}, marked(operation, version), version);
          }
        }
      } else if (key === 'components') {
        skeleton.components = {};
        for (const [section, named] of Object.entries<Json>(value)) {
          skeleton.components[section] = {};
          for (const [name, component] of Object.entries(named)) {
            skeleton.components[section][name] = variantOf((store.components[section] ??= {})[name] ??= {}, marked(component, version), version);
          }
        }
      } else if (key === 'tags') {
        skeleton.tags = {};
        for (const tag of value as { name: string }[]) {
          skeleton.tags[tag.name] = variantOf(store.tags[tag.name] ??= {}, marked(tag, version), version);
        }
      } else skeleton[key] = value;
    }
    store.versions[version] = skeleton;
  }
  store.paths = sortedKeys(store.paths);
  for (const path of Object.keys(store.paths)) store.paths[path] = sortedKeys(store.paths[path]);
  store.tags = sortedKeys(store.tags);
  store.components = sortedKeys(store.components);
  for (const section of Object.keys(store.components)) store.components[section] = sortedKeys(store.components[section]);
  const text = format(store) + '\n';
  // The server assembles what it serves from this file: prove now that every version comes back byte for byte.
  const reread = JSON.parse(text) as OpenApiStore;
  for (const version of dates) {
    if (assembleDocument(reread, version) !== documents[version]) throw new Error(`generated/openapi.json does not give back the ${version} document`);
  }
  return text;
}
