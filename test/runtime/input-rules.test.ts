// No input reaches PostgreSQL unchecked: forged cursors, timestamps PostgreSQL refuses, integers past their column,
// non-finite numbers and empty references are 400s naming the input, never 500s.
import { join } from 'node:path';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { operations } from '../../generated/routes.js';
import { encodeCursor } from '../../runtime/pagination.js';
import { parseInstant } from '../../runtime/instant.js';
import { headVersion } from '../../runtime/versions.js';
import { assertError } from './envelope.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('runtime: input rules');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;

t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Rules Shop' });
});
t.after(async () => { await app.close(); });

/** Forged cursor contents; `text`: a cursor a list ordered by text (users by username) may take, with a valid id. */
const FORGED_CURSORS: { what: string; value: unknown; id: unknown; text?: true }[] = [
  { what: '30 February', value: '2026-02-30T00:00:00.000Z', id: 'biz_x', text: true },
  { what: 'year 0000', value: '0000-01-01T00:00:00.000Z', id: 'biz_x', text: true },
  { what: 'offset -23:59', value: '2026-01-01T00:00:00-23:59', id: 'biz_x', text: true },
  { what: 'a NUL in the id', value: '2026-01-01T00:00:00.000Z', id: 'biz_\u0000' },
  { what: 'a lone surrogate in the id', value: '2026-01-01T00:00:00.000Z', id: 'biz_\ud800' },
  { what: 'an id of 65 characters', value: '2026-01-01T00:00:00.000Z', id: `biz_${'x'.repeat(61)}` },
  { what: 'an empty id', value: '2026-01-01T00:00:00.000Z', id: '' },
  { what: 'an integer past 2^53', value: 2 ** 53 + 2, id: 'biz_x' },
  { what: 'a NUL in the sort value', value: 'a\u0000', id: 'user_x' },
  { what: 'a lone surrogate in the sort value', value: '\udfff', id: 'user_x' },
];

t('parseInstant: real instants of years 0001-9999 with offsets PostgreSQL accepts, nothing else', () => {
  for (const ok of ['2026-01-31T12:00:00Z', '2024-02-29T00:00:00z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z',
    '2026-01-01T00:00:00+15:59', '2026-01-01T00:00:00-0530', '2026-01-01T00:00:00+01']) {
    assert.ok(parseInstant(ok) !== null, ok);
  }
  for (const bad of ['2026-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-00:01', '2026-01-01T00:00:00-23:59', '2026-01-01T00:00:00+16:00', '2026-12-31T23:59:60Z',
    '2026-01-01T24:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00', ' 2026-01-01T00:00:00Z']) {
    assert.is(parseInstant(bad), null, bad);
  }
  assert.is(parseInstant('2026-01-01T01:00:00+01:00'), Date.parse('2026-01-01T00:00:00Z'));
});

t('every list operation refuses forged cursors with a 400 naming after or before', async () => {
  const lists = operations.filter((op) => op.list && op.versions[headVersion()] && op.handler);
  assert.ok(lists.length >= 17, `${lists.length} list operations`);
  const doc = JSON.parse(readOpenApiDocument(join(projectRoot, 'generated'), headVersion()));
  for (const op of lists) {
    // Path ids are the account's own (a 404 would come first otherwise); required text filters get a value.
    const path = op.path.replace(/:[a-z_]+/g, o.accountId);
    const parameters: { name: string; in: string; required: boolean; schema: { pattern?: string; format?: string } }[] =
      doc.paths[op.path.replace(/:([a-z_]+)/g, '{$1}')].get.parameters;
    // A required window (a report's from and to) gets a valid one: the cursor must be what the request gets wrong.
    // A required id of another resource (reviews' product_id) gets a well-formed one.
    const prefix = (p: (typeof parameters)[number]) => /^\^([a-z]+_)/.exec(p.schema.pattern ?? '')?.[1];
    const sample = (p: (typeof parameters)[number]) => (p.schema.pattern?.startsWith('^biz_') ? o.accountId
      : p.schema.format === 'date-time' ? (p.name === 'to' ? '2026-01-02T00:00:00Z' : '2026-01-01T00:00:00Z')
        : prefix(p) ? `${prefix(p)}forgedcursortest` : 'a');
    const required = Object.fromEntries(parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, sample(p)]));
    const token = op.auth.includes('api_key') ? o.key : o.token;
    for (const { what, value, id, text } of FORGED_CURSORS) {
      for (const param of ['after', 'before'] as const) {
        const cursor = Buffer.from(JSON.stringify([value, id])).toString('base64url');
        const res = await app.request('GET', path, { token, version: headVersion(), query: { ...required, [param]: cursor } });
        if (op.path.includes(':') && res.status === 404) continue; // a path id that is not of this resource
        if (res.status === 404 && res.body.error?.param in required) continue; // a required reference looked up first
        if (text && res.status === 200) continue;
        assert.is(res.status, 400, `${op.id} with ${what} in ${param}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.is(res.body.error.param, param, `${op.id} with ${what} in ${param}: ${JSON.stringify(res.body)}`);
      }
    }
  }
});

t('a forged cursor on a list that takes no other input is a 400 naming it', async () => {
  for (const { value, id } of FORGED_CURSORS) {
    if (typeof value !== 'string' || value.length < 20) continue;
    const res = await app.request('GET', '/accounts', { token: o.key, query: { after: encodeCursor(value, id as string) } });
    assertError(res, 400, 'invalid_request', 'after');
  }
  const volume = await app.request('GET', '/accounts', { token: o.key, query: { order: 'volume', before: encodeCursor(2 ** 53 + 2, 'biz_x') } });
  assertError(volume, 400, 'invalid_request', 'before');
  const redemptions = await app.request('GET', '/promo_codes', {
    token: o.key, query: { account_id: o.accountId, order: 'redemptions', after: encodeCursor(2 ** 40, 'promo_x') },
  });
  assert.is(redemptions.status, 200, 'a safe integer past int4 is compared as bigint, not refused by the database');
});

t('timestamp filters PostgreSQL would refuse are 400s with the date-time message', async () => {
  for (const value of ['0000-01-01T00:00:00Z', '2026-01-01T00:00:00-23:59', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00+24:00']) {
    for (const [path, param] of [['/accounts', 'created_after'], ['/accounts', 'created_before'], ['/members', 'joined_after'],
      ['/members', 'joined_before'], ['/payments', 'created_after'], ['/setup_intents', 'created_before']]) {
      const res = await app.request('GET', path, { token: o.key, query: { [param]: value } });
      assertError(res, 400, 'invalid_request', param);
      assert.match(res.body.error.message, 'must be an ISO 8601 timestamp with time and offset, such as 2026-01-31T12:00:00Z');
    }
  }
});

t('epoch seconds at older versions stop at the last instant the API stores', async () => {
  const last = await app.request('GET', '/accounts', { token: o.key, version: '2025-01-01', query: { created_before: '253402300799' } });
  assert.is(last.status, 200, JSON.stringify(last.body));
  for (const value of ['253402300800', '99999999999999999999']) {
    const res = await app.request('GET', '/accounts', { token: o.key, version: '2025-01-01', query: { created_before: value } });
    assertError(res, 400, 'invalid_request', 'created_before');
  }
});

t('stock past the int4 column, and numbers JSON.parse reads as Infinity, are 400s naming the field', async () => {
  const product = await app.request('POST', '/products', { token: o.key, body: { account_id: o.accountId, title: 'Course' } });
  assert.is(product.status, 201);
  const variant = { account_id: o.accountId, product_id: product.body.id, plan_type: 'one_time', initial_price: 100 };
  const variantText = (stock: string) => JSON.stringify(variant).replace(/}$/, `,"stock":${stock}}`);
  for (const stock of ['2147483648', '1e20', '1e999', '-1e999']) {
    for (const path of ['/variants', '/plans']) {
      const res = await app.request('POST', path, { token: o.key, rawBody: variantText(stock), headers: { 'content-type': 'application/json' } });
      assertError(res, 400, 'invalid_request', 'stock');
    }
    const inline = JSON.stringify({ account_id: o.accountId, plan: variant }).replace(/}}$/, `,"stock":${stock}}}`);
    const res = await app.request('POST', '/checkout_configurations', { token: o.key, rawBody: inline, headers: { 'content-type': 'application/json' } });
    assertError(res, 400, 'invalid_request', 'plan.stock');
  }
  const largest = await app.request('POST', '/variants', { token: o.key, body: { ...variant, stock: 2147483647 } });
  assert.is(largest.status, 201, JSON.stringify(largest.body));
  const created = await app.request('PATCH', `/variants/${largest.body.id}`, { token: o.key, rawBody: '{"stock":1e999}', headers: { 'content-type': 'application/json' } });
  assertError(created, 400, 'invalid_request', 'stock');
  const metadata = await app.request('POST', '/products', { token: o.key, rawBody: `{"account_id":"${o.accountId}","title":"x","metadata":{"n":1e999}}`, headers: { 'content-type': 'application/json' } });
  assertError(metadata, 400, 'invalid_request', 'metadata.n');
});

t('query numbers that coerce to Infinity are 400s, not values past their range checks', async () => {
  for (const [param, value] of [['first', '1e999'], ['last', '-1e999'], ['volume_min', '1e999']]) {
    const res = await app.request('GET', '/accounts', { token: o.key, query: { [param]: value } });
    assertError(res, 400, 'invalid_request', param);
  }
});

t('a reference that is empty or of another resource is a 400 naming it', async () => {
  for (const value of ['', 'plan_x', 'chcfg_', 'chcfg_\u0000']) {
    const res = await app.request('POST', '/setup_intents', {
      token: o.key, body: { account_id: o.accountId, confirmation_token: 'ctok_x', checkout_configuration_id: value },
    });
    assertError(res, 400, 'invalid_request', 'checkout_configuration_id');
  }
  const taxCode = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, body: { product_tax_code_id: '' } });
  assertError(taxCode, 400, 'invalid_request', 'product_tax_code_id');
});

t.run();
