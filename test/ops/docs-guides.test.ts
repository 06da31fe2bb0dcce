// The documentation site serves the guides (docs/*.md) as pages: /docs/guides is the index, linking every guide,
// each guide is a page of the site with its headings' anchors, links between guides stay on the site, and a name
// that is no guide (or climbs out of docs/) is a 404.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { guideNames } from '../../runtime/docs/guides.js';

const t = suite('ops: the guides on the documentation site');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function get(path: string) {
  const res = await fetch(`${app.server.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

t('every page of the site links the guides', async () => {
  for (const path of ['/docs', '/docs/changelog', '/docs/guides']) assert.match((await get(path)).text, 'href="/docs/guides"', path);
});

t('/docs/guides is the index, linking every guide', async () => {
  const res = await get('/docs/guides');
  assert.is(res.status, 200);
  assert.match(res.type, 'text/html');
  assert.match(res.text, '<h1 id="guides">Guides</h1>');
  const names = guideNames().filter((n) => n !== 'README');
  assert.ok(names.includes('adding-an-endpoint') && names.includes('sandbox/processor'), names.join(', '));
  for (const name of names) assert.match(res.text, `href="/docs/guides/${name}"`, name);
});

t('each guide is a page, its links to other guides kept on the site', async () => {
  for (const name of guideNames().filter((n) => n !== 'README')) {
    const res = await get(`/docs/guides/${name}`);
    assert.is(res.status, 200, name);
    assert.match(res.text, /<h1 id="[a-z0-9-]+">/, name);
    assert.not.match(res.text, /href="[^"]*\.md[#"]/, `${name}: a link to a .md file was left as it is`);
  }
  const processor = await get('/docs/guides/sandbox/processor');
  assert.match(processor.text, '4000000000000002');
  assert.match(processor.text, '<table>');
  const start = await get('/docs/guides/getting-started');
  assert.match(start.text, 'id="first-ten-minutes"');
  assert.match(start.text, /<pre><code[^>]*>npm install &amp;&amp; npm start\n?<\/code><\/pre>/);
  // A numbered step keeps its nested list and code, and the steps after them stay in the same list.
  const guide = (await get('/docs/guides/adding-an-endpoint')).text;
  assert.match(guide, /<li>(?:<p>)?<strong>Describe it<\/strong> as above[\s\S]*?<ul>\s*<li>an <code>integer<\/code> input[\s\S]*?<\/ul>[\s\S]*?<\/li>\s*<li>(?:<p>)?<strong>Generate<\/strong>/);
});

t('a name that is no guide is a 404', async () => {
  for (const path of ['/docs/guides/nope', '/docs/guides/../package', '/docs/guides/%2e%2e/README', '/docs/guides/sandbox',
    '/docs/guides/README.md']) {
    assert.is((await get(path)).status, 404, path);
  }
});

t.run();
