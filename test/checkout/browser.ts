// Chromium for the checkout page's browser tests, launched as the documentation site's test launches it; the tests
// skip themselves (test/helpers/skip.ts) where there is none.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const noBrowser = (): string | null =>
  (existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

export async function launch(): Promise<Browser> {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** A page that records script errors and failed requests of `origin` (the test asserts there were none). */
export async function watchedPage(browser: Browser, origin: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  page.on('requestfailed', (r) => { if (r.url().startsWith(origin)) problems.push(`failed: ${r.url()}`); });
  return { page, problems };
}

/** Fills the checkout form as a buyer would and pays; resolves once the browser has left the checkout page. */
export async function payWith(page: Page, email: string, card: string): Promise<void> {
  await page.type('#email', email);
  await page.type('#card-number', card);
  await page.type('#card-exp-month', '12');
  await page.type('#card-exp-year', '2030');
  await page.type('#card-cvc', '123');
  try {
    await Promise.all([page.waitForNavigation({ timeout: 30_000 }), page.click('#pay-button')]);
  } catch (e) {
    // Say what the page showed instead of leaving.
    throw new Error(`${(e as Error).message}; the page says: ${await page.$eval('#error', (el) => el.textContent).catch(() => '?')}`);
  }
}

/** Waits until the page's address satisfies `done` (the result page reloads itself while the payment is collected). */
export async function waitForUrl(page: Page, done: (url: URL) => boolean, timeout = 30_000): Promise<URL> {
  const until = Date.now() + timeout;
  for (;;) {
    const url = new URL(page.url());
    if (done(url)) return url;
    if (Date.now() > until) throw new Error(`still at ${url} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
