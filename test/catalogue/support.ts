// Shared helpers of the catalogue tests: error assertions and objects made through the API itself.
import { headVersion } from '../../runtime/versions.js';
import * as assert from 'uvu/assert';
import type { TestApp, TestResponse } from '../helpers/harness.js';

export function expectError(res: TestResponse, status: number, type: string, param?: string | null) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.type, type);
  if (param !== undefined) assert.is(res.body.error.param, param);
}

export function expectStatus(res: TestResponse, status: number) {
  assert.is(res.status, status, JSON.stringify(res.body));
  return res.body;
}

export async function createProduct(app: TestApp, token: string, accountId: string, extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/products', { version: headVersion(), token, body: { account_id: accountId, title: 'Course', ...extra } });
  return expectStatus(res, 201);
}

export async function createVariant(app: TestApp, token: string, accountId: string, productId: string,
  extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/variants', {
    token, body: { account_id: accountId, product_id: productId, plan_type: 'one_time', initial_price: 1000, ...extra },
  });
  return expectStatus(res, 201);
}

/** Events recorded for an account, oldest first. */
export async function eventTypes(app: TestApp, accountId: string): Promise<string[]> {
  const rows = await app.db('events').where({ account_id: accountId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('type');
  return rows.map((r) => r.type);
}

/** Checks the rows were created in the order given, each strictly after the one before (rows made one request after
 * another are), so no list order a test asserts rests on a tie of created_at. */
export async function createdInOrder(app: TestApp, table: string, ids: string[]): Promise<void> {
  const rows = await app.db(table).whereIn('id', ids).select('id', 'created_at');
  const stamps = ids.map((id) => new Date(rows.find((r) => r.id === id).created_at).getTime());
  for (let i = 1; i < stamps.length; i++) {
    if (!(stamps[i] > stamps[i - 1])) throw new Error(`${table} ${ids[i]} was not created after ${ids[i - 1]}`);
  }
}
