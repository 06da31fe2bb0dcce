// The OpenAPI documents over HTTP: without credentials, per version, revalidated by ETag.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { projectRoot } from '../../runtime/project-root.js';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { specData } from '../../generated/spec-data.js';

const t = suite('runtime: OpenAPI served');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const HEAD = specData.versions[0];
const file = (version: string) => readOpenApiDocument(join(projectRoot, 'generated'), version);

t('GET /openapi.json is the latest document, without credentials, cacheable', async () => {
  const res = await fetch(`${app.url}/openapi.json`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'application/json');
  assert.is(await res.text(), file(HEAD));
  assert.is(res.headers.get('api-version-date'), HEAD);
  assert.match(res.headers.get('cache-control') ?? '', 'max-age');
  const etag = res.headers.get('etag')!;
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
  const again = await fetch(`${app.url}/openapi.json`, { headers: { 'if-none-match': etag } });
  assert.is(again.status, 304);
  assert.is(await again.text(), '');
});

t('each area is a tag whose description is the area\'s (shown by /docs above its operations)', async () => {
  const doc = JSON.parse(await (await fetch(`${app.url}/openapi.json`)).text());
  const tags = new Map<string, string | undefined>(doc.tags.map((tag: { name: string; description?: string }) => [tag.name, tag.description]));
  const used = new Set(Object.values<Record<string, { tags: string[] }>>(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => op.tags)));
  assert.equal([...tags.keys()].sort(), [...used].sort());
  assert.match(tags.get('members') ?? '', 'access_level is derived on every read');
  assert.match(tags.get('payouts') ?? '', 'sandbox payout rail');
});

t('?version= gives the document in force on that date; each version has its own ETag', async () => {
  const oldest = specData.versions[specData.versions.length - 1];
  const res = await fetch(`${app.url}/openapi.json?version=${oldest}`);
  assert.is(res.status, 200);
  const doc = JSON.parse(await res.text());
  assert.is(doc.info['x-api-version-date'], oldest);
  const between = await fetch(`${app.url}/openapi.json?version=2026-08-01`);
  assert.is(JSON.parse(await between.text()).info['x-api-version-date'], specData.versions.find((v) => v <= '2026-08-01'));
  const head = await fetch(`${app.url}/openapi.json`);
  assert.is.not(res.headers.get('etag'), head.headers.get('etag'));
});

t('a version that is not a date, or before the first, is a 400 naming version', async () => {
  for (const bad of ['soon', '1999-01-01', '2026-02-30']) {
    const res = await fetch(`${app.url}/openapi.json?version=${bad}`);
    assert.is(res.status, 400, bad);
    const body = await res.json();
    assert.is(body.error.param, 'version');
  }
});

t.run();
