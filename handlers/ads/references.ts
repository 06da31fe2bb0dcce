// What ads and ad groups name outside this area: external accounts (sacc_), their posts and audiences (aud_),
// built by the external accounts and audiences area. Each must belong to the same account (400 naming the field).
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';

// Until that area's tables are merged, references are checked by their id's form only (the spec's patterns).
async function tableExists(db: Knex, table: string): Promise<boolean> {
  const { rows } = await db.raw('select to_regclass(?) as t', [table]);
  return rows[0].t !== null;
}

async function missing(db: Knex, table: string, ids: string[], accountId: string): Promise<string | undefined> {
  if (ids.length === 0 || !(await tableExists(db, table))) return undefined;
  const found = await db(table).whereIn('id', ids).where({ account_id: accountId }).whereNull('deleted_at').pluck('id');
  return ids.find((id) => !found.includes(id));
}

export async function checkExternalAccounts(db: Knex, accountId: string, refs: { id: string }[]): Promise<void> {
  const ids = refs.map((r) => r.id);
  if (new Set(ids).size !== ids.length) throw invalid('An external account is named twice', 'external_accounts');
  const absent = await missing(db, 'external_accounts', ids, accountId);
  if (absent) throw invalid(`No such external account on this account: '${absent}'`, `external_accounts[${ids.indexOf(absent)}].id`);
}

/** The chosen post must be a post of one of the ad's external accounts. */
export async function checkExistingPost(db: Knex, postId: string, externalAccountIds: string[]): Promise<{ thumbnail_url: string | null; source: string | null }> {
  if (!(await tableExists(db, 'external_account_posts'))) return { thumbnail_url: null, source: null };
  const post = externalAccountIds.length === 0 ? undefined
    : await db('external_account_posts').where({ id: postId }).whereIn('external_account_id', externalAccountIds).first();
  if (!post) throw invalid(`No post '${postId}' of the ad's external accounts`, 'existing_post_id');
  return { thumbnail_url: post.thumbnail_url ?? null, source: post.platform ?? null };
}

export async function checkAudiences(db: Knex, accountId: string, audiences: { include: string[]; exclude: string[] }): Promise<void> {
  for (const side of ['include', 'exclude'] as const) {
    const absent = await missing(db, 'audiences', audiences[side], accountId);
    if (absent) throw invalid(`No such audience on this account: '${absent}'`, `audiences.${side}`);
  }
  if (audiences.include.some((id) => audiences.exclude.includes(id))) {
    throw invalid('An audience cannot be both included and excluded', 'audiences.exclude');
  }
}
