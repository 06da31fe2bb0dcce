// GET {base}/openapi.json[?version=YYYY-MM-DD]: the OpenAPI document of the latest version, or of the version in
// force on a date, without credentials, with an ETag so clients and proxies revalidate instead of downloading.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'koa';
import { HEAD_VERSION, parseVersionDate } from './versions.js';
import { api, whenInstalled } from './api-definition.js';

interface Served { text: string; etag: string }
let documents: Map<string, Served> | null = null;

/** Read once, on first use: a few hundred kilobytes per version, served many times. */
function served(version: string): Served {
  const { spec, documentsDir } = api();
  documents ??= new Map(spec.versions.map((v) => {
    const text = readFileSync(join(documentsDir, 'openapi', `${v}.json`), 'utf8');
    return [v, { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` }];
  }));
  return documents.get(version)!;
}

/** The document's path under the installed API's base path (a live binding, set when wiring/compose.ts runs). */
export let OPENAPI_PATH: string;

whenInstalled(({ spec }) => {
  OPENAPI_PATH = `${spec.basePath}/openapi.json`;
  documents = null;
});

export function serveOpenApi(ctx: Context): void {
  const asked = typeof ctx.query.version === 'string' ? ctx.query.version : undefined;
  const version = asked === undefined ? HEAD_VERSION : parseVersionDate(asked, 'version');
  const doc = served(version);
  ctx.set('ETag', doc.etag);
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.set('Api-Version-Date', version);
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.get('If-None-Match').split(/\s*,\s*/).includes(doc.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = doc.text;
}
