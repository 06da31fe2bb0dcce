// What the benchmarks read: a platform account with an admin API key, and a connected account under it with
// ledger postings, lifetime volume and a paid reward, so that every query of the account view returns rows.
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { issueApiKey } from '../handlers/api_keys/api-key-service.js';
import { newId } from '../runtime/ids.js';

export interface Fixture {
  platformId: string;
  connectedId: string;
  /** an admin API key on the platform account */
  apiKey: string;
}

export async function seed(db: Knex): Promise<Fixture> {
  return db.transaction(async (trx) => {
    const platform = await insertAccount(trx, { title: 'Bench Platform', email: 'platform@example.com', country: 'US' });
    const connected = await insertAccount(trx, {
      title: 'Bench Connected Shop', email: 'shop@example.com', country: 'GB', parentId: platform.id, metadata: { external_id: 'shop-1' },
    });
    const key = await issueApiKey(trx, { accountId: platform.id, name: 'bench', role: 'admin' });
    await trx('accounts').where({ id: connected.id }).update({ lifetime_volume_usd: 2_500_000 });
    const buckets = ['available', 'pending', 'in_transit'];
    await trx('ledger_postings').insert(Array.from({ length: 60 }, (_, i) => ({
      entry_id: newId('le_'), account_id: connected.id, bucket: buckets[i % 3], currency: 'usd', amount: 1_000 + i,
    })));
    await trx('reward_payouts').insert({ account_id: connected.id, milestone_id: 'rwd_10k', status: 'paid', paid_at: trx.fn.now() });
    return { platformId: platform.id, connectedId: connected.id, apiKey: key.secret };
  });
}
