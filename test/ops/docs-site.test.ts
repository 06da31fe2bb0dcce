// The documentation site over HTTP, and in headless Chromium: the reference renders the operations from
// node_modules' Swagger UI, its version switcher loads another version's document (a schema that differs changes
// on the page), and the changelog lists every version and compares any two as the diff tool does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { skip } from '../helpers/skip.js';
import { specData } from '../../generated/spec-data.js';
import { loadSpec } from '../../generator/load-spec.js';
import { diffVersions } from '../../generator/diff.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('ops: documentation site');
const { spec } = loadSpec(projectRoot);
let app: TestApp;
let origin: string;
t.before(async () => {
  app = await startTestApp();
  origin = app.server.url;
});
t.after(async () => { await app.close(); });

const HEAD = specData.versions[0];
const OLDEST = specData.versions.at(-1)!;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = join(projectRoot, '.data', 'test-output');

async function get(path: string) {
  const res = await fetch(`${origin}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

t('/docs is a page loading Swagger UI from this server, offering every dated version\'s document', async () => {
  const res = await get('/docs');
  assert.is(res.status, 200);
  assert.match(res.type, 'text/html');
  assert.not.match(res.text, /https?:\/\//, 'nothing is loaded from elsewhere');
  for (const v of specData.versions) assert.match(res.text, `/api/v1/openapi.json?version=${v}`);
  for (const asset of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
    const a = await get(`/docs/assets/${asset}`);
    assert.is(a.status, 200, asset);
    assert.ok(a.text.length > 1000, asset);
  }
  assert.match((await get('/docs/assets/swagger-ui.css')).type, 'text/css');
  assert.is((await get('/docs/assets/package.json')).status, 404, 'only the listed files are served');
  assert.match((await get(`/docs?version=${OLDEST}`)).text, `"urls.primaryName":"${OLDEST}"`);
  assert.is((await get('/docs?version=1999-01-01')).status, 400);
  // The v2 guide keeps its own route under /docs.
  assert.is((await get('/docs/v2-migration')).status, 200);
});

t('/docs/changelog lists every version with its entries, breaking ones and migrations marked', async () => {
  const res = await get('/docs/changelog');
  assert.is(res.status, 200);
  for (const v of specData.versions) assert.match(res.text, `id="v-${v}"`);
  const migrations = spec.versions.flatMap((v) => v.changes).map((c) => c.migration).filter(Boolean) as string[];
  assert.ok(migrations.length > 0);
  for (const m of migrations) assert.match(res.text, `migration ${m}`);
  assert.match(res.text, 'class="badge breaking"');
  assert.match(res.text, 'class="badge additive"');
});

t('/docs/changelog?from=&to= says what a pin crosses, with the diff tool\'s counts', async () => {
  for (const [from, to] of [['2026-07-20', HEAD], [OLDEST, HEAD], [HEAD, '2026-08-14']]) {
    const res = await get(`/docs/changelog?from=${from}&to=${to}`);
    assert.is(res.status, 200);
    const d = diffVersions(spec, from, to);
    assert.match(res.text, `<h2>From ${d.from} to ${d.to}</h2>`);
    assert.match(res.text, `${d.summary.breaking} breaking change`);
    assert.match(res.text, `${d.summary.additive} addition`);
    for (const m of d.migrations) assert.match(res.text, m.name);
    for (const name of Object.keys(d.operations)) assert.match(res.text, `Operation <code>${name}</code>`);
  }
  assert.match((await get(`/docs/changelog?from=${HEAD}&to=2026-08-14`)).text, /the later date came first/i);
  const bad = await get('/docs/changelog?from=yesterday');
  assert.is(bad.status, 400);
});

t('in Chromium: the reference renders the operations, and switching versions changes a schema', async () => {
  if (!existsSync(CHROMIUM)) return skip(`no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1800 });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) failed.push(`elsewhere: ${r.url()}`); });
    page.on('console', (m) => { if (m.type() === 'error') failed.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => failed.push(`page error: ${e}`));
    await page.goto(`${origin}/docs`, { waitUntil: 'networkidle0' });
    // Swagger UI keeps only the operations near the viewport in the page: scroll through it, collecting each one seen.
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const seen = new Set<string>();
    for (let still = 0; still < 5;) {
      const visible = await page.$$eval('.opblock', (els) => els.map((e) =>
        `${e.querySelector('.opblock-summary-method')?.textContent} ${e.querySelector('.opblock-summary-path')?.textContent}`));
      const before = seen.size;
      for (const v of visible) seen.add(v);
      still = seen.size === before ? still + 1 : 0;
      await page.evaluate(() => window.scrollBy(0, 1500));
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.ok(seen.size >= 50, `${seen.size} operations rendered`);
    assert.ok(seen.has('POST /payments/{id}/capture'), 'a head-only operation is listed');

    /** A schema's properties as the page shows them, once expanded (Swagger UI's JSON Schema 2020-12 view). The
     * schemas list is virtual and scrolls in a box of its own (.models-scroll): only the schemas near its viewport are
     * in the page, so the box is scrolled until the schema appears (scrolling the window shows nothing more). */
    const schemaFields = async (name: string): Promise<string> => {
      // The schemas section starts collapsed: open it.
      await page.waitForSelector('section.models', { timeout: 30_000 });
      if (!await page.$('section.models.is-open')) await page.$eval('section.models button.models-control', (b) => (b as HTMLElement).click());
      await page.$eval('section.models', (el) => el.scrollIntoView());
      await page.waitForSelector('section.models .models-scroll', { timeout: 30_000 });
      return page.evaluate(async (wanted) => {
        const box = document.querySelector('section.models .models-scroll') as HTMLElement;
        // (No named functions in here: tsx's __name helper does not exist in the page.)
        let article: HTMLElement | undefined;
        box.scrollTop = 0;
        for (let i = 0; !article && i < 400; i++) {
          article = [...document.querySelectorAll('section.models article[data-json-schema-level="0"]')]
            .find((a) => a.querySelector('.json-schema-2020-12__title')?.textContent === wanted) as HTMLElement | undefined;
          if (article) break;
          box.scrollTop += 300;
          await new Promise((r) => setTimeout(r, 50));
        }
        if (!article) return `no schema ${wanted} in the list`;
        article.scrollIntoView();
        (article.querySelector('button.json-schema-2020-12-accordion') as HTMLElement).click();
        for (let i = 0; i < 100 && !article.innerText.includes('created_at'); i++) await new Promise((r) => setTimeout(r, 50));
        return article.innerText;
      }, name);
    };
    /** every schema title the virtual list shows, scrolled from top to bottom */
    const schemaTitles = async (): Promise<string[]> => page.evaluate(async () => {
      const box = document.querySelector('section.models .models-scroll') as HTMLElement;
      const seen = new Set<string>();
      box.scrollTop = 0;
      for (let still = 0; still < 10;) {
        const before = seen.size;
        for (const a of document.querySelectorAll('section.models article[data-json-schema-level="0"]')) {
          seen.add(a.querySelector('.json-schema-2020-12__title')?.textContent ?? '');
        }
        still = seen.size === before ? still + 1 : 0;
        box.scrollTop += 300;
        await new Promise((r) => setTimeout(r, 100));
      }
      return [...seen];
    });
    const accountFields = () => schemaFields('Account');
    const atHead = await accountFields();
    assert.match(atHead, /parent_account(?!_id)/);
    assert.not.match(atHead, 'parent_account_id');
    // Every schema of the document is reachable in the list (it once looked cut off after ApiKeyStatement: the
    // list scrolls in its own box), and one far down it, Payment, shows its head-only field.
    const head = await (await fetch(`${origin}/api/v1/openapi.json?version=${HEAD}`)).json() as { components: { schemas: Record<string, unknown> } };
    const titles = await schemaTitles();
    assert.equal(Object.keys(head.components.schemas).filter((n) => !titles.includes(n)), [], 'every schema is listed');
    assert.match(await schemaFields('Payment'), 'settlement_time_at');

    // The switcher: Swagger UI's definition selector, whose options are the versions' documents.
    const options = await page.$$eval('select#select option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.equal(options, specData.versions.map((v) => `/api/v1/openapi.json?version=${v}`));
    const loaded = page.waitForResponse((r) => r.url().endsWith(`openapi.json?version=${OLDEST}`));
    await page.select('select#select', `/api/v1/openapi.json?version=${OLDEST}`);
    await loaded;
    await page.waitForFunction(() => !document.body.innerText.includes('/payments/{id}/capture'), { timeout: 30_000 });
    const atOldest = await accountFields();
    assert.match(atOldest, 'parent_account_id');
    assert.not.match(atOldest, /parent_account(?!_id)/);

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'docs-reference.png'), fullPage: false });
    await page.goto(`${origin}/docs/changelog?from=2026-07-20&to=${HEAD}`, { waitUntil: 'networkidle0' });
    assert.ok(await page.$eval('#compare', (el) => (el as HTMLElement).innerText.includes('breaking change')));
    await page.screenshot({ path: join(OUTPUT, 'docs-changelog.png'), fullPage: false });
    assert.equal(failed, [], 'every request was answered by this server');
  } finally {
    await browser.close();
  }
});

t.run();
