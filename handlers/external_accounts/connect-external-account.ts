// The connect_external_account job: asks the social network (social-network-port.ts) about a connecting external
// account and brings the profile's facts, posts and instant forms in. The job locks and re-reads the row and does
// nothing unless it is still connecting, and a post is inserted once per (external account, platform post id), so a
// job run twice, or after a delete, is harmless.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { effectsOn } from '../../generated/effects.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { postRow } from './post-row.js';
import { socialNetwork } from './social-network-port.js';

export const CONNECT_EXTERNAL_ACCOUNT = 'connect_external_account';

export const connectJob = (externalAccountId: string) =>
  [CONNECT_EXTERNAL_ACCOUNT, { external_account_id: externalAccountId },
    { jobKey: `${CONNECT_EXTERNAL_ACCOUNT}:${externalAccountId}` }] as const;

/** One connection attempt: connected with the profile's facts and posts, or failed with the reason. */
export async function connectExternalAccount(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const account = await trx('external_accounts').where({ id }).whereNull('deleted_at').forUpdate().first();
    if (!account || account.status !== 'connecting') return;
    const lookup = await socialNetwork().lookUpProfile(account.platform, account.username);
    if ('missing' in lookup) {
      await trx('external_accounts').where({ id }).update({ status: 'failed', error: lookup.missing, updated_at: nowMs(trx) });
      await effectsOn(trx).emit('external_account.connection_failed', account.account_id,
        await readView(trx, resources.ExternalAccount, id));
      return;
    }
    const { profile } = lookup;
    const rows = profile.posts.map(({ age_days, ...post }) =>
      postRow(account, post, trx.raw(`date_trunc('milliseconds', now()) - make_interval(days => ?)`, [age_days])));
    await trx('external_account_posts').insert(rows).onConflict(['external_account_id', 'platform_post_id']).ignore();
    const ago = (days: number) => trx.raw(`date_trunc('milliseconds', now()) - make_interval(days => ?)`, [days]);
    if (profile.lead_forms.length > 0) {
      await trx('external_account_lead_forms').insert(profile.lead_forms.map(({ age_days, ...form }) => ({
        id: newId('xform_'), account_id: account.account_id, external_account_id: id, ...form, locale: socialNetwork().formLocale,
        status: 'active', created_at: ago(age_days), updated_at: ago(age_days),
      }))).onConflict(['external_account_id', 'platform_form_id']).ignore();
    }
    await trx('external_accounts').where({ id }).update({
      status: 'connected', error: null, external_id: profile.external_id, name: profile.name, url: profile.url,
      profile_picture_url: profile.profile_picture_url, verified: profile.verified, connected_at: nowMs(trx),
      updated_at: nowMs(trx),
    });
    await effectsOn(trx).emit('external_account.connected', account.account_id,
      await readView(trx, resources.ExternalAccount, id));
  });
}

export function externalAccountTasks(db: Knex): Record<string, Task> {
  return {
    [CONNECT_EXTERNAL_ACCOUNT]: async (payload) =>
      connectExternalAccount(db, (payload as { external_account_id: string }).external_account_id),
  };
}
