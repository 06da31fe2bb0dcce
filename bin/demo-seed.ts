// The first start on an empty database creates a sandbox demo account with an owner, an API key and a user token.

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../wiring/compose.js';
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { insertUser, issueUserToken } from '../handlers/users/user-service.js';
import { issueApiKey } from '../handlers/api_keys/api-key-service.js';

export const DEMO_RATE_LIMIT_MULTIPLIER = 10;

export async function seedDemo(db: Knex) {
  return db.transaction(async (trx) => {
    // Serialise concurrent first starts against one database.
    await trx.raw('select pg_advisory_xact_lock(424242)');
    const any = await trx('accounts').first('id');
    if (any) return null;
    const user = await insertUser(trx, { username: 'demo', email: 'demo@example.com', name: 'Demo Owner' });
    const account = await insertAccount(trx, { title: 'Demo Store', email: 'demo@example.com', country: 'US', ownerUserId: user.id });
    const key = await issueApiKey(trx, { accountId: account.id, name: 'Demo key', role: 'admin', createdByUserId: user.id });
    // Ten times the spec's request budgets (runtime/rate-limit.ts): room for trying load against the sandbox.
    await trx('api_keys').where({ id: key.row.id }).update({ rate_limit_multiplier: DEMO_RATE_LIMIT_MULTIPLIER });
    const token = await issueUserToken(trx, user.id, 'Demo token');
    return {
      accountId: account.id as string, accountTitle: account.title as string, clientId: account.client_id as string, apiKey: key.secret,
      userId: user.id as string, username: user.username as string, userToken: token.secret,
    };
  });
}
