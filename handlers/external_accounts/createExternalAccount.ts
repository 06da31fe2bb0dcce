import type { Handler } from '../../runtime/handler.js';
import { conflict, invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { connectJob } from './sandbox-network.js';

/** POST /external_accounts: the runtime has checked social_account:update on account_id. The account starts
 * connecting; the connect_external_account job asks the sandbox network about the handle. */
export const createExternalAccount: Handler<'createExternalAccount'> = async ({ body }, ctx) => {
  const username = body.username.replace(/^@/, '').toLowerCase();
  const parentId = body.parent_external_account_id ?? null;
  if (parentId !== null) {
    if (body.platform !== 'instagram') {
      throw invalid('Only an instagram profile is owned by a page', 'parent_external_account_id');
    }
    // Another account's external accounts do not exist for this one.
    const parent = await ctx.db('external_accounts').where({ id: parentId, account_id: body.account_id })
      .whereNull('deleted_at').first();
    if (!parent) throw notFound('external account', parentId, 'parent_external_account_id');
    if (parent.platform !== 'facebook') {
      throw invalid('The owning external account must be a facebook page', 'parent_external_account_id');
    }
  }
  const id = newId('sacc_');
  // A handle connected twice at once: the partial unique index decides, and the loser writes nothing.
  const inserted = await ctx.db.raw(`insert into external_accounts
      (id, account_id, platform, username, status, scopes, parent_external_account_id)
    values (?, ?, ?, ?, 'connecting', ?::text[], ?)
    on conflict (account_id, platform, username) where deleted_at is null do nothing returning id`,
  [id, body.account_id, body.platform, username, [...new Set(body.scopes ?? [])], parentId]);
  if (inserted.rows.length === 0) {
    throw conflict(`@${username} is already connected to this account on ${body.platform}`, 'username');
  }
  await ctx.addJob(...connectJob(id));
  return readView(ctx.db, resources.ExternalAccount, id);
};
