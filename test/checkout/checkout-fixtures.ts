// A seller with a product, a variant and a checkout configuration, made through the API, for the checkout page's
// tests. The page's links are made under PUBLIC_BASE_URL, which the tests point at their own server (the server runs
// in the test's process, so it reads the same variable).
import { headVersion } from '../../runtime/versions.js';
import { makeOwner } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/harness.js';
import { expectStatus } from '../catalogue/support.js';

export const VERSION = headVersion();

export const CARDS = { succeeds: '4242424242424242', threeDSecure: '4000002500003155', declined: '4000000000000002' };

/** Makes the server's public links point at this test server; the returned function puts the setting back (other
 * test files may run in this process after this one). */
export function servePublicLinks(app: TestApp): () => void {
  const saved = process.env.PUBLIC_BASE_URL;
  process.env.PUBLIC_BASE_URL = app.server.url;
  return () => {
    if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
    else process.env.PUBLIC_BASE_URL = saved;
  };
}

export async function makeShop(app: TestApp, variant: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  const o = await makeOwner(app.db, { title: 'Clay Studio' });
  const { client_id } = await app.db('accounts').where({ id: o.accountId }).first('client_id');
  const call = (method: string, path: string, body?: Record<string, unknown>) => app.request(method, path, { token: o.key, version: VERSION, body });
  const product = expectStatus(await call('POST', '/products', { account_id: o.accountId, title: 'Pottery course' }), 201);
  const plan = expectStatus(await call('POST', '/variants', {
    account_id: o.accountId, product_id: product.id, plan_type: 'one_time', initial_price: 1000, currency: 'usd', title: 'Full access', ...variant,
  }), 201);
  const checkout = expectStatus(await call('POST', '/checkout_configurations', { account_id: o.accountId, plan_id: plan.id, ...config }), 201);
  return { ...o, clientId: client_id as string, product, plan, checkout, call };
}

export const pathOf = (url: string) => { const u = new URL(url); return `${u.pathname}${u.search}`; };
