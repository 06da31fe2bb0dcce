// Answering a browser with a web build, as the page of a hosted app (hosted-app-pages.ts) or of an account's website
// (accounts/website-pages.ts). A build's attachment (a file of the files area) is either one document, served at
// the address itself, or a zip archive of a site, whose entries are served under the address (its index.html at
// the address). The states where no build is served answer a small HTML page saying why.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { extname } from 'node:path';
import { fileStorage } from '../../runtime/file-storage.js';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../shared/html.js';
import { isZip, loadArchive, UnreadableArchive } from './web-archive.js';

// Files declare no web content types (spec/areas/files.yaml: an .html upload is stored application/octet-stream), so
// a generic file, and every archive entry, is served by its name's extension when that names a web type.
const WEB_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8', '.json': 'application/json', '.map': 'application/json',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.ico': 'image/x-icon', '.woff': 'font/woff', '.woff2': 'font/woff2', '.wasm': 'application/wasm',
  '.pdf': 'application/pdf', '.mp4': 'video/mp4',
};

export function servedContentType(file: { content_type: string; filename: string }): string {
  if (file.content_type !== 'application/octet-stream') return file.content_type;
  return WEB_TYPES[extname(file.filename).toLowerCase()] ?? file.content_type;
}

function servedHeaders(ctx: Context, type: string, size: number): void {
  ctx.status = 200;
  ctx.set('Content-Type', type);
  ctx.set('Content-Length', String(size));
  // Tenants' pages share this server's origin: the sandbox gives them an origin of their own (no access to what the
  // server's own pages keep in the browser), and no type sniffing turns a text into a script.
  ctx.set('Content-Security-Policy', 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // A promotion or a new deployment changes what the address serves: browsers ask again each time.
  ctx.set('Cache-Control', 'no-cache');
}

/** The object's first bytes; null when the store no longer has it. */
async function headOf(db: Knex, storageKey: string): Promise<Buffer | null> {
  const stream = fileStorage(db).read(storageKey);
  try {
    for await (const chunk of stream) return chunk as Buffer;
    return Buffer.alloc(0);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return null;
    throw e;
  } finally {
    stream.destroy();
  }
}

/** What serving a build's path gave: served, or the page to answer instead: nothing there (404, no why), a build that
 * cannot be served as uploaded (404, why), or stored bytes gone (503, why: the server's fault, counted as one). */
export type Served = { served: true } | { served: false; status: 404 | 503; why?: string };

/** Serves `path` (relative to the address: '' is the address itself) of the build. */
export async function serveBuild(ctx: Context, db: Knex, buildId: string, path: string): Promise<Served> {
  const file = await db('app_builds as b').join('files as f', 'f.id', 'b.file_id').where('b.id', buildId)
    .where('f.status', 'ready').first('f.content_type', 'f.filename', 'f.size', 'f.storage_key');
  const head = file?.storage_key ? await headOf(db, file.storage_key) : null;
  if (!head) return { served: false, status: 503, why: 'The build\'s file is no longer stored.' };
  if (isZip(head)) {
    try {
      const entry = (await loadArchive(db, file.storage_key, Number(file.size))).read(path);
      if (!entry) return { served: false, status: 404 };
      servedHeaders(ctx, servedContentType({ content_type: 'application/octet-stream', filename: entry.name }), entry.bytes.length);
      ctx.body = entry.bytes;
      return { served: true };
    } catch (e) {
      if (e instanceof UnreadableArchive || e instanceof RangeError || (e as { code?: string }).code?.startsWith('Z_')) {
        return { served: false, status: 404, why: `The build's archive cannot be read: ${e instanceof Error ? e.message : String(e)}.` };
      }
      throw e;
    }
  }
  if (path !== '') return { served: false, status: 404 };
  servedHeaders(ctx, servedContentType(file), Number(file.size));
  ctx.body = fileStorage(db).read(file.storage_key);
  return { served: true };
}

/** A page in place of a build: 404 for every state a tenant's page can be in (nothing here, not yet published, being
 * deployed: Retry-After then says when to ask again), 503 only for the server's own fault. */
export function answerPage(ctx: Context, status: 404 | 503, title: string, text: string, retryAfterSeconds?: number): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  if (retryAfterSeconds !== undefined) ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.body = page(title, `<p>${escapeHtml(text)}</p>`);
}

/** The path asked for under an address (`rest` of /<prefix>/<name>/<rest>), or null after sending /<prefix>/<name>
 * to /<prefix>/<name>/, where a build's relative links resolve. */
export function pathUnder(ctx: Context): string | null {
  const rest = ctx.params.rest;
  if (rest === undefined && !ctx.path.endsWith('/')) {
    ctx.redirect(`${ctx.path}/${ctx.search}`);
    ctx.status = 308;
    return null;
  }
  const path = Array.isArray(rest) ? rest.join('/') : String(rest ?? '');
  return ctx.path.endsWith('/') && path !== '' && !path.endsWith('/') ? `${path}/` : path;
}
