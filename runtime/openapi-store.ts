// generated/openapi.json: every version's OpenAPI document in one file, each operation and each component written
// once per shape instead of once per version (generator/emit-openapi-store.ts writes it). Twelve versions share
// most of their parts, so twelve full copies were ~14 MB that a one-field edit touched twelve times; here the edit
// changes the lines of the one part (or the few variants of it) that holds the field.
//
// The file's shape:
//   versions: { <date>: the document with each part replaced by the key of its variant }
//   paths: { <path>: { <method>: { <key>: operation } } }
//   components: { <section>: { <name>: { <key>: component } } }
//   tags: { <name>: { <key>: tag } }   (a version's skeleton lists its tags as { <name>: <key> }, in order)
// A variant's key is the first version whose part it is. Inside a part, a string that is the version's own date
// (the Api-Version-Date header's default) is written VERSION_MARK, so that versions differing only in it share.
// This module is the format's reader: the server (runtime/openapi-documents.ts), the handlers and the tests
// assemble documents with it, and the generator proves at every `npm run generate` that it gives back each
// version's document byte for byte.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = any;

export const VERSION_MARK = '{version}';

export interface OpenApiStore {
  versions: Record<string, Json>;
  paths: Record<string, Record<string, Record<string, Json>>>;
  components: Record<string, Record<string, Record<string, Json>>>;
  tags: Record<string, Record<string, Json>>;
}

/** The store's file in a generated/ folder. */
export const storeFile = (generatedDir: string) => join(generatedDir, 'openapi.json');

function withVersion(part: Json, version: string): Json {
  if (part === VERSION_MARK) return version;
  if (Array.isArray(part)) return part.map((p) => withVersion(p, version));
  if (part && typeof part === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(part)) out[k] = withVersion(v, version);
    return out;
  }
  return part;
}

/** One version's document, as the generator emitted it (2-space JSON and a final newline); null for an unknown version. */
export function assembleDocument(store: OpenApiStore, version: string): string | null {
  const skeleton = store.versions[version];
  if (!skeleton) return null;
  const doc: Json = {};
  for (const [key, value] of Object.entries<Json>(skeleton)) {
    if (key === 'paths') {
      doc.paths = {};
      for (const [path, methods] of Object.entries<Record<string, string>>(value)) {
        doc.paths[path] = {};
        for (const [method, variant] of Object.entries(methods)) doc.paths[path][method] = withVersion(store.paths[path][method][variant], version);
      }
    } else if (key === 'components') {
      doc.components = {};
      for (const [section, names] of Object.entries<Record<string, string>>(value)) {
        doc.components[section] = {};
        for (const [name, variant] of Object.entries(names)) doc.components[section][name] = withVersion(store.components[section][name][variant], version);
      }
    } else if (key === 'tags') {
      doc.tags = Object.entries<string>(value).map(([name, variant]) => withVersion(store.tags[name][variant], version));
    } else doc[key] = value;
  }
  return JSON.stringify(doc, null, 2) + '\n';
}

const read = new Map<string, OpenApiStore>();

/** A version's document text from a generated/ folder's store (read and parsed once per folder). */
export function readOpenApiDocument(generatedDir: string, version: string): string {
  const file = storeFile(generatedDir);
  let store = read.get(file);
  if (!store) read.set(file, store = JSON.parse(readFileSync(file, 'utf8')) as OpenApiStore);
  const text = assembleDocument(store, version);
  if (text === null) throw new Error(`${file} has no document for version ${version}`);
  return text;
}
