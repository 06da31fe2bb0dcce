// The upgrade workbench page (/workbench, handlers/api_keys/workbench-page.ts) over HTTP and in headless Chromium: a
// key pinned at 2026-07-20 that listed memberships and read its account; the page, given the owner's user token and
// the key's id, shows the pin, the entries crossed and the shadow replay's differences, then moves the pin to the
// latest version and rolls it back, each through the API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { skip } from '../helpers/skip.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { specData } from '../../generated/spec-data.js';

const t = suite('ops: upgrade workbench page');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PIN = '2026-07-20';
const HEAD = specData.versions[0];
let app: TestApp;
let origin: string;
t.before(async () => {
  app = await startTestApp();
  origin = app.server.url;
});
t.after(async () => { await app.close(); });

/** An owner, and an admin key pinned at 2026-07-20 whose reads are in the API logs. */
async function pinnedKeyWithReads() {
  const o = await makeOwner(app.db);
  const pinned = await makeKey(app.db, { accountId: o.accountId, role: 'admin', apiVersionDate: PIN });
  await makeMembership(app, o.accountId, o.owner.id);
  for (const [path, query] of [['/memberships', { company_id: o.accountId }], [`/accounts/${o.accountId}`, {}]] as const) {
    const res = await app.request('GET', path, { token: pinned.secret, query });
    assert.is(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  }
  await app.server.apiLogs!.flush();
  return { o, pinned };
}

t('/workbench is one document with a same-origin script, offering every version, under a CSP', async () => {
  const res = await fetch(`${origin}/workbench`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'text/html');
  assert.match(res.headers.get('content-security-policy') ?? '', "script-src 'self'");
  const html = await res.text();
  assert.not.match(html, /https?:\/\//, 'nothing is loaded from elsewhere');
  assert.not.match(html, /<script>/, 'no inline script');
  for (const v of specData.versions) assert.match(html, `<option value="${v}"`);
  const script = await fetch(`${origin}/workbench/workbench.js`);
  assert.is(script.status, 200);
  assert.match(script.headers.get('content-type') ?? '', 'javascript');
  assert.not.match(await script.text(), /localStorage|sessionStorage|document\.cookie|innerHTML/, 'the token is kept in memory; text is never HTML');
});

t('in Chromium: shows the pin, the entries crossed and the differences; moves the pin and rolls it back', async () => {
  if (!existsSync(CHROMIUM)) return skip(`no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const { o, pinned } = await pinnedKeyWithReads();
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('request', (r) => { if (!r.url().startsWith(origin)) failed.push(`elsewhere: ${r.url()}`); });
    page.on('console', (m) => { if (m.type() === 'error') failed.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => failed.push(`page error: ${e}`));
    await page.goto(`${origin}/workbench`, { waitUntil: 'networkidle0' });
    await page.type('#token', o.token);
    await page.type('#key-id', pinned.id);
    assert.is(await page.$eval('#target', (s) => (s as HTMLSelectElement).value), HEAD, 'the latest version is the default target');
    await page.click('#show');
    const text = (selector: string) => page.$eval(selector, (e) => (e as HTMLElement).innerText);
    const shown = async (selector: string, wanted: string) => {
      try {
        await page.waitForFunction((s, w) => (document.querySelector(s) as HTMLElement | null)?.innerText.includes(w), { timeout: 30_000 }, selector, wanted);
      } catch {
        assert.unreachable(`${selector} never showed ${wanted}: ${await text(selector)} (status: ${await text('#status')})`);
      }
    };
    await shown('#status', 'Shown for');
    assert.is(await text('#pin'), PIN);
    assert.match(await text('#pins'), PIN);
    // The entries crossed: memberships' company_id renamed (entry 53 of 2026-07-23), breaking ones first.
    await shown('#changes', '2026-07-23#53');
    const breaking = await page.$$eval('#changes tr', (rows) => rows.map((r) => r.querySelector('.breaking') !== null));
    assert.ok(breaking[0], 'a breaking entry comes first');
    assert.equal(breaking, [...breaking].sort((a, b) => Number(b) - Number(a)), 'breaking entries before the others');
    // The shadow replay: listMemberships' company_id now account_id, before and after, with its entry.
    const operations = await text('#operations');
    assert.match(operations, 'listMemberships');
    assert.match(operations, 'renamed data[].account_id');
    assert.match(operations, '"company_id"');
    assert.match(operations, '"account_id"');
    assert.match(operations, '2026-07-23#53');
    assert.match(operations, 'retrieveAccount');
    assert.match(await text('#rollback-pin'), 'nothing to roll back');
    assert.ok(await page.$eval('#rollback-pin', (b) => (b as HTMLButtonElement).disabled));

    // Move the pin to the target: the page refreshes with the new pin and the way back.
    assert.is(await text('#move-pin'), `Move pin to ${HEAD}`);
    await page.click('#move-pin');
    await shown('#pin', HEAD);
    const key = await app.request('GET', `/api_keys/${pinned.id}`, { token: o.token });
    assert.is(key.body.api_version_date, HEAD, 'the API says the same');
    assert.ok(key.body.pin_rollback_until);
    await shown('#rollback-pin', `Roll back (until ${key.body.pin_rollback_until})`);
    assert.match(await text('#previous'), `Last moved from ${PIN}`);

    // Roll back: the old pin again.
    await page.click('#rollback-pin');
    await shown('#pin', PIN);
    assert.is((await app.request('GET', `/api_keys/${pinned.id}`, { token: o.token })).body.api_version_date, PIN);
    await shown('#rollback-pin', 'nothing to roll back');
    assert.ok(await page.$eval('#rollback-pin', (b) => (b as HTMLButtonElement).disabled), 'a rollback is not rolled back');
    assert.not.ok(await page.$eval('#move-pin', (b) => (b as HTMLButtonElement).disabled));
    assert.not.match(page.url(), o.token, 'the token is never in the URL');
    assert.is(await page.evaluate(() => localStorage.length + sessionStorage.length + document.cookie.length), 0, 'nor in storage');
    assert.equal(failed, []);
  } finally {
    await browser.close();
  }
});

t.run();
