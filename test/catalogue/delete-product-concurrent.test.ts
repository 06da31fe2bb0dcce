// Deleting a product while variants are being added to it: every variant of a deleted product is deleted with it
// (a 404 that sells nothing), whichever request commits first. Each create answers 201 or 404, never a 5xx.
import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { createProduct, expectStatus } from './support.js';

const t = suite('products: delete while variants are created');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const PARALLEL = 8;

t('variants created alongside the product\'s delete are all 404 afterwards; none is left selling', async () => {
  const o = await makeOwner(app.db);
  for (let round = 0; round < 3; round++) {
    const product = await createProduct(app, o.key, o.accountId);
    const create = () => app.request('POST', '/variants', { version: headVersion(), token: o.key,
      body: { account_id: o.accountId, product_id: product.id, plan_type: 'one_time', initial_price: 1000 } });
    const before = Array.from({ length: PARALLEL / 2 }, create);
    const deleted = app.request('DELETE', `/products/${product.id}`, { version: headVersion(), token: o.key });
    const after = Array.from({ length: PARALLEL / 2 }, create);
    const results = await Promise.all([...before, ...after]);
    expectStatus(await deleted, 200);
    for (const r of results) assert.ok(r.status === 201 || r.status === 404, JSON.stringify(r.body));
    for (const r of results.filter((x) => x.status === 404)) assert.is(r.body.error.param, 'product_id');
    for (const r of results.filter((x) => x.status === 201)) {
      const got = await app.request('GET', `/variants/${r.body.id}`, { version: headVersion(), token: o.key });
      assert.is(got.status, 404, `variant ${r.body.id} of the deleted product ${product.id} is still live`);
    }
    const listed = await app.request('GET', '/variants', { version: headVersion(), token: o.key, query: { product_id: product.id } });
    assert.is(listed.status === 404 || listed.body.data.length === 0, true, JSON.stringify(listed.body));
  }
});

t.run();
