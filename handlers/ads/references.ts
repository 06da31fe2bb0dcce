// What ads and ad groups name outside this area: external accounts (sacc_) and their posts (xpost_), from the
// external accounts area (migrations/380), and audiences (adaud_), from the audiences area (migrations/381). Each must belong to the
// ad's own account (400 naming the field).
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';

export async function checkExternalAccounts(db: Knex, accountId: string, refs: { id: string }[]): Promise<void> {
  const ids = refs.map((r) => r.id);
  if (new Set(ids).size !== ids.length) throw invalid('An external account is named twice', 'external_accounts');
  if (ids.length === 0) return;
  const found = await db('external_accounts').whereIn('id', ids).where({ account_id: accountId }).whereNull('deleted_at').select('id', 'status');
  ids.forEach((id, i) => {
    const row = found.find((f) => f.id === id);
    if (!row) throw invalid(`No such external account on this account: '${id}'`, `external_accounts[${i}].id`);
    if (row.status !== 'connected') throw invalid(`External account '${id}' is ${row.status}, not connected`, `external_accounts[${i}].id`);
  });
}

/** The chosen post must be a facebook or instagram post of one of the ad's external accounts. */
export async function checkExistingPost(db: Knex, postId: string, externalAccountIds: string[]): Promise<{ thumbnail_url: string | null; source: 'facebook' | 'instagram' }> {
  const post = externalAccountIds.length === 0 ? undefined
    : await db('external_account_posts as p').join('external_accounts as x', 'x.id', 'p.external_account_id')
      .where('p.id', postId).whereIn('p.external_account_id', externalAccountIds).first('p.thumbnail_url', 'x.platform');
  if (!post) throw invalid(`No post '${postId}' of the ad's external accounts`, 'existing_post_id');
  if (post.platform !== 'facebook' && post.platform !== 'instagram') {
    throw invalid(`Ads promote facebook or instagram posts; '${postId}' is a ${post.platform} post`, 'existing_post_id');
  }
  return { thumbnail_url: post.thumbnail_url ?? null, source: post.platform };
}

export async function checkAudiences(db: Knex, accountId: string, audiences: { include: string[]; exclude: string[] }): Promise<void> {
  if (audiences.include.some((id) => audiences.exclude.includes(id))) {
    throw invalid('An audience cannot be both included and excluded', 'audiences.exclude');
  }
  for (const side of ['include', 'exclude'] as const) {
    const ids = audiences[side];
    if (ids.length === 0) continue;
    const found: string[] = await db('audiences').whereIn('id', ids).where({ account_id: accountId }).whereNull('deleted_at').pluck('id');
    const absent = ids.find((id) => !found.includes(id));
    if (absent) throw invalid(`No such audience on this account: '${absent}'`, `audiences.${side}`);
  }
}

/** The sizes of the built live audiences among `ids` (one deleted or not built yet is absent: the delivery model
 * counts it 0). */
export async function audienceSizes(db: Knex, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db('audiences').whereIn('id', ids).whereIn('status', ['ready', 'partial']).whereNull('deleted_at').select('id', 'size');
  return new Map(rows.map((a) => [a.id as string, Number(a.size)]));
}
