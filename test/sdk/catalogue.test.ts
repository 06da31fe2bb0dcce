// Products, plans (deprecated alias of variants), promo codes and checkout configurations through the official
// client: at its default pin 2026-07-20 (company_id, older shapes) and at the latest (account_id).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type Whop from '@whop/sdk';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { LATEST, PIN, collectAll, countingFetch, loose, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: catalogue');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let pinned: Whop;
let latest: Whop;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Catalogue shop' });
  pinned = sdk(app, o.key);
  latest = sdk(app, o.key, { version: LATEST });
});
t.after(async () => { await app.close(); });

async function pinnedProduct(title = 'Course') {
  const body = { company_id: o.accountId, title };
  return pinned.products.create(body);
}

t('products.create sends company_id at 2026-07-20 and answers with company; account_id and account at the latest', async () => {
  const counting = countingFetch();
  const client = sdk(app, o.key, { fetch: counting.fetch });
  const { data: created, response } = await client.products.create({ ...{ company_id: o.accountId }, title: 'Pinned course' }).withResponse();
  assert.is(response.status, 201);
  assert.is(counting.calls[0].headers.get('api-version-date'), PIN);
  assert.match(created.id, /^prod_/);
  assert.is(created.title, 'Pinned course');
  assert.is(raw(created).company.id, o.accountId);
  assert.not.ok('account' in raw(created));
  // account_id is the newer name: refused at the client's pin, naming the field the pin requires.
  const wrong = await rejects(pinned.products.create({ account_id: o.accountId, title: 'x' }), BadRequestError, 400);
  assert.is(raw(wrong.error).error.param, 'company_id');
  const head = await latest.products.create({ account_id: o.accountId, title: 'Latest course' });
  assert.is(raw(head).account.id, o.accountId);
  assert.not.ok('company' in raw(head));
  const old = await rejects(latest.products.create({ ...{ company_id: o.accountId }, title: 'x' }), BadRequestError, 400);
  assert.is(raw(old.error).error.param, 'account_id');
});

t('products.list filters by company_id at the pin and account_id at the latest; retrieve and update', async () => {
  const mine = await pinnedProduct('Listed');
  const elsewhere = await makeOwner(app.db);
  await sdk(app, elsewhere.key).products.create({ ...{ company_id: elsewhere.accountId }, title: 'Not mine' });
  const listed = await collectAll(pinned.products.list(loose({ company_id: o.accountId, first: 2 })));
  const ids = listed.map((p) => p.id);
  assert.ok(ids.includes(mine.id));
  assert.is(new Set(ids).size, ids.length);
  assert.ok(listed.every((p) => raw(p).company.id === o.accountId));
  const atLatest = await latest.products.list({ account_id: o.accountId, first: 100 });
  assert.equal(atLatest.data.map((p) => p.id).sort(), [...ids].sort());
  const refused = await rejects(pinned.products.list({ account_id: o.accountId }), BadRequestError, 400);
  assert.is(raw(refused.error).error.param, 'account_id');
  const got = await pinned.products.retrieve(mine.id);
  assert.is(got.id, mine.id);
  assert.is(raw(got).company.id, o.accountId);
  const updated = await pinned.products.update(mine.id, { title: 'Renamed', description: 'Now with a description' });
  assert.is(updated.title, 'Renamed');
  assert.is(updated.description, 'Now with a description');
  assert.is((await latest.products.retrieve(mine.id)).title, 'Renamed');
  await rejects(pinned.products.retrieve('prod_doesnotexist0000'), NotFoundError, 404);
});

t('plans: list/create/retrieve/update at 2026-07-20 with company_id, each answering Deprecation and a successor Link', async () => {
  const product = await pinnedProduct('Planned');
  const createBody = {
    company_id: o.accountId, product_id: product.id, plan_type: 'renewal', billing_period: 30,
    initial_price: 1000, renewal_price: 1000, title: 'Monthly',
  };
  const { data: plan, response: createdRes } = await pinned.plans.create(createBody).withResponse();
  assert.is(createdRes.status, 201);
  assert.match(plan.id, /^plan_/);
  assert.is(raw(plan).company_id, o.accountId);
  assert.not.ok('account_id' in raw(plan));
  assert.is(plan.plan_type, 'renewal');
  assert.is(plan.billing_period, 30);
  assert.is(createdRes.headers.get('deprecation'), 'true');
  assert.is(createdRes.headers.get('link'), '</api/v1/variants>; rel="successor-version"');

  const { data: page, response: listRes } = await pinned.plans.list(loose({ company_id: o.accountId, product_ids: undefined })).withResponse();
  assert.ok(page.data.some((p) => p.id === plan.id));
  assert.ok(page.data.every((p) => raw(p).company_id === o.accountId));
  assert.is(listRes.headers.get('deprecation'), 'true');
  assert.is(listRes.headers.get('link'), `</api/v1/variants?company_id=${o.accountId}>; rel="successor-version"`);

  const { data: got, response: getRes } = await pinned.plans.retrieve(plan.id).withResponse();
  assert.is(got.id, plan.id);
  assert.is(getRes.headers.get('deprecation'), 'true');
  assert.is(getRes.headers.get('link'), `</api/v1/variants/${plan.id}>; rel="successor-version"`);

  const raw1 = await pinned.plans.update(plan.id, { title: 'Monthly (new)', renewal_price: 1200 }).asResponse();
  assert.is(raw1.status, 200);
  assert.is(raw1.headers.get('deprecation'), 'true');
  const updated = await raw1.json();
  assert.is(updated.title, 'Monthly (new)');
  assert.is(raw(await latest.plans.retrieve(plan.id)).account_id, o.accountId);
  // The successor answers without the deprecation headers.
  const successor = await app.request('GET', `/variants/${plan.id}`, { token: o.key, version: PIN });
  assert.is(successor.status, 200);
  assert.is(successor.headers.get('deprecation'), null);
});

t('plans.delete: DELETE /plans/{id} deletes the plan; before consistent deletes (2026-07-22) it answers { id, success: true }', async () => {
  const product = await pinnedProduct('Deleted plan');
  const plan = await pinned.plans.create(loose({ company_id: o.accountId, product_id: product.id, plan_type: 'one_time', initial_price: 500 }));
  const { data: deleted, response } = await pinned.plans.delete(plan.id).withResponse();
  // The client types this as a bare boolean but does not check it; entry 54 keeps the older object form.
  assert.equal(raw(deleted), { id: plan.id, success: true });
  assert.is(response.headers.get('deprecation'), 'true');
  await rejects(pinned.plans.retrieve(plan.id), NotFoundError, 404);
  const variant = await latest.plans.create(loose({ account_id: o.accountId, product_id: product.id, plan_type: 'one_time', initial_price: 600 }));
  assert.equal(raw(await latest.plans.delete(variant.id)), { id: variant.id, deleted: true });
});

t('promo codes: create with promo_type, decimal amount_off and company_id at 2026-07-20; list, retrieve, delete', async () => {
  const created = await pinned.promoCodes.create({
    company_id: o.accountId, code: 'SDKFLAT', promo_type: 'flat_amount', amount_off: 5.25, base_currency: 'usd',
    new_users_only: false, promo_duration_months: 1, stock: 5,
  });
  assert.match(created.id, /^promo_/);
  assert.is(raw(created).company_id, o.accountId);
  assert.is(created.promo_type, 'flat_amount');
  assert.is(created.amount_off, 5.25);
  assert.is(created.currency, 'usd');
  assert.is(created.stock, 5);
  assert.is(created.uses, 0);
  assert.is(created.status, 'active');
  // What the pin's decimal meant, in minor units, at the latest.
  const head = await latest.promoCodes.retrieve(created.id);
  assert.equal(raw(head).amount_off, { amount: 525, currency: 'usd', decimals: 2, display_decimals: 2 });
  const percent = await pinned.promoCodes.create({
    company_id: o.accountId, code: 'SDKPCT', promo_type: 'percentage', amount_off: 12.5, base_currency: 'usd',
    new_users_only: false, promo_duration_months: 1, unlimited_stock: true,
  });
  assert.is(percent.amount_off, 12.5);
  assert.is(percent.promo_type, 'percentage');

  const listed = await collectAll(pinned.promoCodes.list({ company_id: o.accountId, first: 1 }));
  assert.equal(listed.map((c) => c.id).sort(), [created.id, percent.id].sort());
  assert.is((await pinned.promoCodes.retrieve(created.id)).code, 'SDKFLAT');
  const filtered = await pinned.promoCodes.list({ company_id: o.accountId, status: 'active' });
  assert.is(filtered.data.length, 2);

  const deleted = await pinned.promoCodes.delete(created.id);
  // The server's released 2026-07-20 contract returns the archived promo code (the client's type says boolean).
  assert.is(raw(deleted).id, created.id);
  assert.is(raw(deleted).status, 'archived');
  assert.is((await pinned.promoCodes.retrieve(created.id)).status, 'archived');
  assert.equal((await pinned.promoCodes.list({ company_id: o.accountId, status: 'archived' })).data.map((c) => c.id), [created.id]);
});

t('promo codes: rules the platform cannot honour are a clear BadRequestError naming the field', async () => {
  const err = await rejects(pinned.promoCodes.create({
    company_id: o.accountId, code: 'NEWONLY', promo_type: 'percentage', amount_off: 10, base_currency: 'usd',
    new_users_only: true, promo_duration_months: 1,
  }), BadRequestError, 400);
  assert.is(raw(err.error).error.param, 'new_users_only');
  assert.ok(raw(err.error).error.message.length > 0);
  const months = await rejects(pinned.promoCodes.create({
    company_id: o.accountId, code: 'SIXMONTHS', promo_type: 'percentage', amount_off: 10, base_currency: 'usd',
    new_users_only: false, promo_duration_months: 6,
  }), BadRequestError, 400);
  assert.is(raw(months.error).error.param, 'promo_duration_months');
});

t('checkout configurations: create/list/retrieve at 2026-07-20 with company_id and epoch-second timestamps', async () => {
  const product = await pinnedProduct('Checkout');
  const plan = await pinned.plans.create(loose({ company_id: o.accountId, product_id: product.id, plan_type: 'one_time', initial_price: 700 }));
  const before = Math.floor(Date.now() / 1000) - 1;
  const created = await pinned.checkoutConfigurations.create(loose({ company_id: o.accountId, mode: 'payment', plan_id: plan.id }));
  assert.match(created.id, /^[a-z]+_/);
  assert.is(raw(created).company_id, o.accountId);
  assert.not.ok('account_id' in raw(created));
  assert.is(typeof created.created_at, 'number');
  assert.ok(raw(created).created_at >= before && raw(created).created_at <= Math.ceil(Date.now() / 1000));
  assert.is(created.mode, 'payment');
  const setup = await pinned.checkoutConfigurations.create(loose({ company_id: o.accountId, mode: 'setup' }));
  // The client lists by account_id at its pin already, with epoch-second windows.
  const listed = await collectAll(pinned.checkoutConfigurations.list({ account_id: o.accountId, first: 1 }));
  assert.equal(listed.map((c) => c.id).sort(), [created.id, setup.id].sort());
  assert.ok(listed.every((c) => typeof c.created_at === 'number'));
  const after = await collectAll(pinned.checkoutConfigurations.list({ account_id: o.accountId, created_after: raw(setup).created_at + 5 }));
  assert.equal(after, []);
  const window = await collectAll(pinned.checkoutConfigurations.list({ account_id: o.accountId, created_after: before - 5 }));
  assert.is(window.length, 2);
  const got = await pinned.checkoutConfigurations.retrieve(created.id);
  assert.is(got.id, created.id);
  assert.is(got.created_at, created.created_at);
  const head = await latest.checkoutConfigurations.retrieve(created.id);
  assert.is(head.account_id, o.accountId);
  assert.is(Math.floor(Date.parse(head.created_at) / 1000), raw(created).created_at);
});

t('products.delete and checkoutConfigurations.delete remove the object (retrieve is then a NotFoundError)', async () => {
  const product = await pinnedProduct('Short-lived');
  const deleted = await pinned.products.delete(product.id);
  // Observed at 2026-07-20: { id, success: true } (the client's type says a bare boolean).
  assert.ok(deleted === true || raw(deleted).success === true, JSON.stringify(deleted));
  await rejects(pinned.products.retrieve(product.id), NotFoundError, 404);
  const config = await pinned.checkoutConfigurations.create(loose({ company_id: o.accountId, mode: 'setup' }));
  await pinned.checkoutConfigurations.delete(config.id);
  await rejects(pinned.checkoutConfigurations.retrieve(config.id), NotFoundError, 404);
});

t.run();
