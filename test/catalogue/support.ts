// Shared helpers of the catalogue tests: error assertions and objects made through the API itself.
import { HEAD_VERSION } from '../../runtime/versions.js';
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
  const res = await app.request('POST', '/products', { version: HEAD_VERSION, token, body: { account_id: accountId, title: 'Course', ...extra } });
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

let clock = Date.now() - 3_600_000;
/** Gives the rows increasing creation times a second apart, in the order given, so no list order rests on a tie. */
export async function spreadCreatedAt(app: TestApp, table: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    clock += 1000;
    await app.db(table).where({ id }).update({ created_at: new Date(clock).toISOString() });
  }
}
