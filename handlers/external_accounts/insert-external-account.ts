// Connecting a handle, whether by POST /external_accounts or by the owner's consent on the network's authorize page:
// the row starts connecting and the connect_external_account job asks the sandbox network about it.
import { conflict, invalid, notFound } from '../../runtime/errors.js';
import type { Effects } from '../../generated/effects.js';
import { newId } from '../../runtime/ids.js';
import { connectJob } from './connect-external-account.js';

export interface NewExternalAccount {
  account_id: string;
  platform: string;
  username: string;
  scopes: string[];
  parent_external_account_id: string | null;
}

/** The new external account's id. A handle already connected to the account on the platform is a 409 naming
 * username; a parent that is not a facebook page of the account a 404 or 400 naming parent_external_account_id. */
export async function insertExternalAccount(fx: Effects, a: NewExternalAccount): Promise<string> {
  const username = a.username.replace(/^@/, '').toLowerCase();
  if (a.parent_external_account_id !== null) {
    if (a.platform !== 'instagram') {
      throw invalid('Only an instagram profile is owned by a page', 'parent_external_account_id');
    }
    // Another account's external accounts do not exist for this one.
    const parent = await fx.db('external_accounts').where({ id: a.parent_external_account_id, account_id: a.account_id })
      .whereNull('deleted_at').first();
    if (!parent) throw notFound('external account', a.parent_external_account_id, 'parent_external_account_id');
    if (parent.platform !== 'facebook') {
      throw invalid('The owning external account must be a facebook page', 'parent_external_account_id');
    }
  }
  const id = newId('sacc_');
  // A handle connected twice at once: the partial unique index decides, and the loser writes nothing.
  const inserted = await fx.db.raw(`insert into external_accounts
      (id, account_id, platform, username, status, scopes, parent_external_account_id)
    values (?, ?, ?, ?, 'connecting', ?::text[], ?)
    on conflict (account_id, platform, username) where deleted_at is null do nothing returning id`,
  [id, a.account_id, a.platform, username, [...new Set(a.scopes)], a.parent_external_account_id]);
  if (inserted.rows.length === 0) {
    throw conflict(`@${username} is already connected to this account on ${a.platform}`, 'username');
  }
  await fx.addJob(...connectJob(id));
  return id;
}
