// The documentation site, without credentials: /docs (the reference, runtime/docs/reference-page.ts), its assets from
// node_modules/swagger-ui-dist, /docs/changelog (runtime/docs/changelog-page.ts) and /docs/guides (the project's
// Markdown guides under docs/, runtime/docs/guides.ts). Other /docs paths (the v2
// migration guide) are left to their own routes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'koa';
import { ApiError } from '../errors.js';
import { api } from '../api-definition.js';
import { referencePage } from './reference-page.js';
import { changelogPage } from './changelog-page.js';
import { changelog, crossing, versionOn } from './changelog.js';
import { GUIDES_PATH, guidePage } from './guides.js';
import { DOCS_PATH } from './docs-path.js';

const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const assetCache = new Map<string, Buffer>();

function dateParam(ctx: Context, name: string): string | undefined {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return undefined;
  const version = typeof raw === 'string' ? versionOn(changelog(), raw) : null;
  if (!version) throw new ApiError(400, 'invalid_request', `${name} must be a date on or after the first version, ${api().spec.versions.at(-1)}`, name);
  return version;
}

function html(ctx: Context, body: string): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.body = body;
}

/** Serves the path if it is the site's; says whether it did. */
export async function serveDocs(ctx: Context): Promise<boolean> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const path = ctx.path.replace(/\/$/, '') || '/';
  const { basePath, versions } = api().spec;
  if (path === DOCS_PATH) {
    html(ctx, referencePage(basePath, versions, dateParam(ctx, 'version') ?? versions[0]));
    return true;
  }
  if (path === `${DOCS_PATH}/changelog`) {
    const from = dateParam(ctx, 'from');
    const to = dateParam(ctx, 'to');
    const compared = from || to ? crossing(changelog(), from ?? versions.at(-1)!, to ?? versions[0]) : null;
    html(ctx, changelogPage(changelog(), compared));
    return true;
  }
  if (path === GUIDES_PATH || path.startsWith(`${GUIDES_PATH}/`)) {
    const guide = guidePage(path);
    if (guide === undefined) return false;
    html(ctx, guide);
    return true;
  }
  const asset = path.startsWith(`${DOCS_PATH}/assets/`) ? path.slice(DOCS_PATH.length + 8) : null;
  if (asset !== null && Object.hasOwn(ASSETS, asset)) {
    let bytes = assetCache.get(asset);
    if (!bytes) assetCache.set(asset, bytes = readFileSync(join(assetDir, asset)));
    ctx.type = ASSETS[asset];
    // The files change only with the package's version, which a deploy changes.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = bytes;
    return true;
  }
  return false;
}
