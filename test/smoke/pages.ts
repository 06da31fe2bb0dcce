// Every route of the bundled server outside /api/v1: health, readiness, metrics, the documentation site and its
// changelog, the OpenAPI documents of every version, the v2 migration guide, and the pages whose links the API hands
// out (receipt, 3-D Secure step, claim and tracking pages, the consent page, file upload and download, hosted apps'
// and websites' addresses).
import { specData } from '../../generated/spec-data.js';
import { v2Settings } from '../../generated/v2-routes.js';
import type { Checks } from './checks.js';
import { expect } from './checks.js';
import { apiClient, type SmokeWorld } from './seed.js';

interface Got { status: number; type: string; text: string; headers: Headers }

async function get(url: string, init: RequestInit = {}): Promise<Got> {
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000), ...init });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text(), headers: res.headers };
}

const shown = (g: Got) => `${g.status} ${g.type} ${g.text.slice(0, 300)}`;

function html(g: Got, what: string) {
  expect(g.status === 200, `${what}: ${shown(g)}`);
  expect(g.type.startsWith('text/html'), `${what} is not HTML: ${g.type}`);
}

export async function checkPages(c: Checks, origin: string, world: SmokeWorld): Promise<void> {
  await c.check('GET /health answers 200', async () => {
    const g = await get(`${origin}/health`);
    expect(g.status === 200, shown(g));
  });
  await c.check('GET /ready answers 200 (database, migrations and a worker)', async () => {
    const g = await get(`${origin}/ready`);
    expect(g.status === 200, shown(g));
  });
  await c.check('GET /metrics answers Prometheus text summed over the API processes', async () => {
    const g = await get(`${origin}/metrics`);
    expect(g.status === 200, shown(g));
    expect(g.type.startsWith('text/plain'), `content type ${g.type}`);
    expect(/^http_requests_total\{/m.test(g.text), 'no http_requests_total samples');
    expect(/^process_cpu_user_seconds_total /m.test(g.text), 'no default process metrics');
  });
  await c.check('GET /docs answers the reference page', async () => html(await get(`${origin}/docs`), '/docs'));
  await c.check('GET /docs/changelog answers the changelog', async () => html(await get(`${origin}/docs/changelog`), '/docs/changelog'));
  await c.check('GET /docs/assets/swagger-ui-bundle.js answers the script', async () => {
    const g = await get(`${origin}/docs/assets/swagger-ui-bundle.js`);
    expect(g.status === 200 && g.type.startsWith('application/javascript') && g.text.length > 100_000, shown(g));
  });
  await c.check(`GET ${v2Settings.guidePath} answers the v2 migration guide`, async () => html(await get(`${origin}${v2Settings.guidePath}`), v2Settings.guidePath));
  await c.check(`GET ${specData.basePath}/openapi.json answers every version's document`, async () => {
    for (const version of [undefined, ...specData.versions]) {
      const g = await get(`${origin}${specData.basePath}/openapi.json${version ? `?version=${version}` : ''}`);
      expect(g.status === 200, `version ${version ?? '(latest)'}: ${shown(g)}`);
      const doc = JSON.parse(g.text);
      expect(typeof doc.openapi === 'string' && doc.openapi.startsWith('3.'), `version ${version}: not an OpenAPI document`);
      expect(g.headers.get('api-version-date') === (version ?? specData.versions[0]), `version ${version}: Api-Version-Date ${g.headers.get('api-version-date')}`);
    }
  });

  const link = (name: string) => {
    const url = world.links.get(name);
    expect(url, `seeding gave no link for the ${name}`);
    return url;
  };
  await c.check('GET /receipts/<token>.pdf answers the receipt', async () => {
    const g = await get(link('receipt'));
    expect(g.status === 200 && g.type.startsWith('application/pdf') && g.text.startsWith('%PDF'), shown(g));
  });
  await c.check('GET /sandbox/authenticate/<secret> answers the 3-D Secure page', async () => html(await get(link('3-D Secure step')), '3-D Secure page'));
  await c.check('POST /sandbox/authenticate/<secret> completes the step', async () => {
    const g = await get(link('3-D Secure step answered'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=succeed' });
    expect(g.status === 200 || g.status === 303, shown(g));
  });
  await c.check('GET /claim/<code> answers the claim page', async () => html(await get(link('claim page')), 'claim page'));
  await c.check('GET /transfers/track/<token> answers the tracking page', async () => html(await get(link('tracking page')), 'tracking page'));
  await c.check('GET /sandbox/oauth/authorize answers the consent page', async () => html(await get(link('consent page')), 'consent page'));
  await c.check('PUT /uploads/<file>/1 stores the bytes; GET /downloads/<file>/<name> answers them', async () => {
    const file = world.file;
    expect(file?.upload_url, `seeding gave no file upload link: ${JSON.stringify(file)?.slice(0, 300)}`);
    const put = await get(file.upload_url, { method: 'PUT', headers: file.upload_headers ?? {}, body: 'smoke' });
    expect(put.status >= 200 && put.status < 300, `upload: ${shown(put)}`);
    const api = apiClient(`${origin}${specData.basePath}`);
    const read = await api('GET', `/files/${file.id}`, { token: world.credentials.api_key });
    expect(read.status === 200 && typeof read.body?.url === 'string', `GET /files/${file.id}: ${read.status} ${read.text.slice(0, 300)}`);
    const download = await get(new URL(read.body.url, origin).href);
    expect(download.status === 200 && download.text === 'smoke', `download: ${shown(download)}`);
  });
  await c.check('GET /apps/<route>/ answers for a hosted app; GET /sites/<route>/ for an account\'s website', async () => {
    const api = apiClient(`${origin}${specData.basePath}`);
    const token = world.credentials.api_key;
    const made = await api('POST', '/apps', { token, body: { account_id: world.accountId, name: 'Smoke site', route: `smoke-page-${Date.now().toString(36)}` } });
    expect(made.status === 201 && typeof made.body?.hosted_url === 'string', `POST /apps: ${made.status} ${made.text.slice(0, 300)}`);
    // No build is promoted: the app's address answers its 404 page, and the website made from it one too (queued or
    // failed by then), never a 5xx.
    const hosted = await get(new URL(new URL(made.body.hosted_url).pathname, origin).href);
    expect(hosted.status === 404 && hosted.type.startsWith('text/html') && /not published/i.test(hosted.text), `hosted app: ${shown(hosted)}`);
    const account = await api('POST', '/accounts', { token, body: { title: 'Smoke website', email: `site-${Date.now()}@example.com`, blueprint_id: made.body.id } });
    expect(account.status === 201, `POST /accounts: ${account.status} ${account.text.slice(0, 300)}`);
    const site = await get(`${origin}/sites/${account.body.route}/`);
    expect(site.status === 404 && site.type.startsWith('text/html'), `website: ${shown(site)}`);
  });

}
