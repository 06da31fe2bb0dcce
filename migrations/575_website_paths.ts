// Deployed websites are served by this server at /sites/<account route>/ (handlers/accounts/website-pages.ts): a
// site's url column holds that path (the API puts PUBLIC_BASE_URL before it), no longer a hostname nothing served.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`update account_sites s set url = '/sites/' || a.route || '/'
    from accounts a where a.id = s.account_id and s.url like 'https://%'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update account_sites s set url = 'https://' || a.route || '.sites.commerce.test'
    from accounts a where a.id = s.account_id and s.url like '/sites/%'`);
}
