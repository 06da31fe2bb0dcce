// GET {base}/openapi.json[?version=YYYY-MM-DD]: the OpenAPI document of the latest version, or of the version in
// force on a date, without credentials, with an ETag so clients and proxies revalidate instead of downloading.
import { createHash } from 'node:crypto';
import type { ApiContext } from './request-state.js';
import { headVersion, parseVersionDate } from './versions.js';
import { api, whenInstalled } from './api-definition.js';
import { readOpenApiDocument } from './openapi-store.js';

interface Served { text: string; etag: string }
const documents = new Map<string, Served>();

/** Assembled once per version, on first use (generated/openapi.json: runtime/openapi-store.ts), served many times. */
function served(version: string): Served {
  let doc = documents.get(version);
  if (!doc) {
    const text = readOpenApiDocument(api().documentsDir, version);
    documents.set(version, doc = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` });
  }
  return doc;
}

/** The document's path under the installed API's base path. */
export function openApiPath(): string {
  return `${api().spec.basePath}/openapi.json`;
}

whenInstalled(() => {
  documents.clear();
});

export function serveOpenApi(ctx: ApiContext): void {
  const asked = typeof ctx.query.version === 'string' ? ctx.query.version : undefined;
  const version = asked === undefined ? headVersion() : parseVersionDate(asked, 'version');
  const doc = served(version);
  ctx.set('ETag', doc.etag);
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Api-Version-Date', version);
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.get('If-None-Match').split(/\s*,\s*/).includes(doc.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = doc.text;
}
