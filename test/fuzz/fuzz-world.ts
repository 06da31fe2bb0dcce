// The objects the fuzzer's requests can name: a seller with a little of everything (through the fixtures and the
// API), a second seller whose ids must stay out of reach, and every id in the database grouped by prefix, the
// seller's own first, so base requests reach past the lookups into the handlers.
import type { Knex } from 'knex';
import type { TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makePromo, makeSavedMethod, makeSeller, makeToken, makeVariant, pay } from '../payments/payment-fixtures.js';
import { makeConfirmationToken, makeMembership, makePaymentMethod } from '../memberships/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import type { IdPool } from './schema-values.js';

export interface Credentials {
  api_key: string;
  user_token: string;
  client: string;
}

export interface World {
  accountId: string;
  credentials: Credentials;
  pool: IdPool;
}

/** Makes the objects; a step the API refuses is skipped (the spec may have moved on), never fatal. */
export async function makeWorld(app: TestApp): Promise<World> {
  const seller = await makeSeller(app.db);
  const post = async (path: string, body: Record<string, unknown>, token: string = seller.key) => {
    const res = await app.request('POST', path, { token, version: headVersion(), body });
    return res.status < 300 ? (res.body as { id?: string }) : null;
  };
  const buyer = await makeUser(app.db);
  const renewal = await makeVariant(app, seller.accountId, { planType: 'renewal', price: 1500, stock: 50 });
  await makeVariant(app, seller.accountId, { planType: 'one_time', price: 900 });
  await makePromo(app, seller.accountId, { code: 'FUZZTEN' });
  for (let i = 0; i < 3; i++) await makeMembership(app, seller.accountId, buyer.id, { productId: renewal.productId, planId: renewal.id });
  const saved = await makeSavedMethod(app, seller.accountId);
  await makePaymentMethod(app, seller.accountId, { memberId: saved.memberId, userId: saved.buyer.id });
  await makeConfirmationToken(app, seller.accountId);
  const paid = await pay(app, seller, { plan_id: renewal.id }, { buyerId: buyer.id });
  await post(`/payments/${paid.id}/refund`, { partial_amount: 100 });
  await pay(app, seller, { amount: 2500, currency: 'usd' }, { collect: false });
  await post('/setup_intents', { account_id: seller.accountId, confirmation_token: await makeToken(app, seller.clientId), user_id: buyer.id });
  await post('/checkout_configurations', { account_id: seller.accountId, plan_id: renewal.id });
  await post('/webhooks', { account_id: seller.accountId, url: 'https://example.com/hooks' });
  const colleague = await makeUser(app.db);
  await post('/team_members', { account_id: seller.accountId, user_id: colleague.id, role: 'admin' });
  await post('/accounts', { title: 'Fuzz Connected', email: 'connected@example.com' });
  await makeKey(app.db, { accountId: seller.accountId, role: 'admin' });

  // Someone else's objects: their ids must answer 404, never leak or write.
  const other = await makeOwner(app.db, { title: 'Other Shop' });
  await makeVariant(app, other.accountId);
  await makeMembership(app, other.accountId, (await makeUser(app.db)).id);

  // The fuzzer's own credentials stay usable: its key and the owner's team membership are not handed out as
  // targets (revoking or removing them would turn the rest of the run into 401s).
  const ownTeamMember = await app.db('team_members').where({ account_id: seller.accountId, user_id: seller.owner.id }).first('id');
  const excluded = new Set([seller.keyId, ownTeamMember?.id as string]);
  return {
    accountId: seller.accountId,
    credentials: { api_key: seller.key, user_token: seller.token, client: seller.clientId },
    pool: await idPool(app.db, [seller.accountId, seller.owner.id], excluded),
  };
}

/** Every id in the public tables by prefix: the credentials' own account and user first, then the account's objects
 * (read-only; also the smoke suite's, test/smoke/operations.ts). */
export async function idPool(db: Knex, own: [accountId: string, userId: string], excluded: Set<string>): Promise<IdPool> {
  const [accountId] = own;
  const columns = await db('information_schema.columns').where({ table_schema: 'public' }).whereIn('column_name', ['id', 'account_id'])
    .select('table_name', 'column_name', 'data_type');
  const tables = new Map<string, { id: boolean; account: boolean }>();
  for (const c of columns) {
    const t = tables.get(c.table_name) ?? { id: false, account: false };
    if (c.column_name === 'id' && c.data_type === 'text') t.id = true;
    if (c.column_name === 'account_id') t.account = true;
    tables.set(c.table_name, t);
  }
  const byPrefix = new Map<string, string[]>();
  for (const [table, t] of [...tables].sort(([a], [b]) => a.localeCompare(b))) {
    if (!t.id) continue;
    const q = db(table).select('id').limit(20);
    if (!t.account) q.orderByRaw('(id = any(?)) desc, id', [own]);
    else q.orderByRaw('(id = any(?)) desc, (account_id = ?) desc nulls last, id', [own, accountId]);
    for (const { id } of await q) {
      const prefix = /^[a-z]+_/.exec(id)?.[0];
      if (!prefix || excluded.has(id)) continue;
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), id]);
    }
  }
  return { real: (prefix) => byPrefix.get(prefix) ?? [], prefixes: () => [...byPrefix.keys()] };
}
