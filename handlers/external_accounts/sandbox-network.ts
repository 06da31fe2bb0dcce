// The sandbox social and ad network: what it holds for a handle is a pure function of SHA-256("<platform>:<handle>")
// (spec/areas/external_accounts.yaml says the rules in words). The connect_external_account job asks it about a
// connecting external account and brings the profile's posts in; the job locks and re-reads the row and does
// nothing unless it is still connecting, and a post is inserted once per (external account, platform post id), so a
// job run twice, or after a delete, is harmless.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { effectsOn } from '../../runtime/effects.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';

export const CONNECT_EXTERNAL_ACCOUNT = 'connect_external_account';

export const connectJob = (externalAccountId: string) =>
  [CONNECT_EXTERNAL_ACCOUNT, { external_account_id: externalAccountId },
    { jobKey: `${CONNECT_EXTERNAL_ACCOUNT}:${externalAccountId}` }] as const;

/** A handle the network has no profile for. */
const UNKNOWN_HANDLE = /^unknown/;

export interface NetworkPost {
  platform_post_id: string;
  media_type: 'image' | 'video';
  video_id: string | null;
  caption: string;
  /** days before the connection it was published */
  age_days: number;
}

/** The locale of every instant form on the network. */
export const FORM_LOCALE = 'en_US';

export interface NetworkLeadForm {
  platform_form_id: string;
  name: string;
  privacy_policy_url: string;
  question_labels: string[];
  /** days before the connection it was made */
  age_days: number;
}

export interface NetworkProfile {
  external_id: string;
  name: string;
  url: string;
  profile_picture_url: string;
  verified: boolean;
  posts: NetworkPost[];
  /** a facebook page's instant forms */
  lead_forms: NetworkLeadForm[];
}

const PROFILE_HOSTS: Record<string, string> = {
  facebook: 'facebook.sandbox.example', instagram: 'instagram.sandbox.example', x: 'x.sandbox.example',
  youtube: 'youtube.sandbox.example', tiktok: 'tiktok.sandbox.example',
};

/** The profile the network holds for a handle, or null when it has none. */
export function lookUpProfile(platform: string, username: string): NetworkProfile | null {
  if (UNKNOWN_HANDLE.test(username)) return null;
  const digest = createHash('sha256').update(`${platform}:${username}`).digest();
  const externalId = digest.readUIntBE(0, 6).toString();
  const count = 2 + (digest[7]! % 5);
  const posts: NetworkPost[] = [];
  for (let n = 1; n <= count; n++) {
    const video = digest[8 + n]! % 2 === 0;
    posts.push({
      platform_post_id: `${externalId}_${n}`, media_type: video ? 'video' : 'image',
      video_id: video ? `${externalId}_v${n}` : null, caption: `Post ${n} by @${username}`, age_days: n,
    });
  }
  const host = PROFILE_HOSTS[platform]!;
  const formCount = platform === 'facebook' ? digest[20]! % 3 : 0;
  const leadForms = Array.from({ length: formCount }, (_, i) => ({
    platform_form_id: `${externalId}_f${i + 1}`, name: `Lead form ${i + 1}`, privacy_policy_url: `https://${host}/${username}/privacy`,
    question_labels: ['Full name', 'Email'], age_days: 7 * (i + 1),
  }));
  return {
    external_id: externalId, name: username, url: `https://${host}/${username}`,
    profile_picture_url: `https://${host}/${username}/picture.png`, verified: digest[6]! % 4 === 0, posts,
    lead_forms: leadForms,
  };
}

/** A post's row: media addresses on the network's host, from its platform id. */
export function postRow(account: { id: string; account_id: string; platform: string; username: string },
  post: Omit<NetworkPost, 'age_days'>, publishedAt: Knex.Raw | Date) {
  const media = `https://${PROFILE_HOSTS[account.platform]!}/${account.username}/posts/${post.platform_post_id}`;
  return {
    id: newId('xpost_'), account_id: account.account_id, external_account_id: account.id,
    platform_post_id: post.platform_post_id, media_type: post.media_type, video_id: post.video_id, caption: post.caption,
    media_url: `${media}/media.${post.media_type === 'video' ? 'mp4' : 'jpg'}`, thumbnail_url: `${media}/thumbnail.jpg`,
    destination_url: `https://${PROFILE_HOSTS[account.platform]!}/${account.username}`, call_to_action: 'learn_more',
    published_at: publishedAt,
  };
}

/** One connection attempt: connected with the profile's facts and posts, or failed with the reason. */
export async function connectExternalAccount(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const account = await trx('external_accounts').where({ id }).whereNull('deleted_at').forUpdate().first();
    if (!account || account.status !== 'connecting') return;
    const profile = lookUpProfile(account.platform, account.username);
    if (!profile) {
      await trx('external_accounts').where({ id }).update({
        status: 'failed', error: `The sandbox network has no ${account.platform} profile @${account.username}`,
        updated_at: nowMs(trx),
      });
      await effectsOn(trx).emit('external_account.connection_failed', account.account_id,
        await readView(trx, resources.ExternalAccount, id));
      return;
    }
    const rows = profile.posts.map(({ age_days, ...post }) =>
      postRow(account, post, trx.raw(`date_trunc('milliseconds', now()) - make_interval(days => ?)`, [age_days])));
    await trx('external_account_posts').insert(rows).onConflict(['external_account_id', 'platform_post_id']).ignore();
    const ago = (days: number) => trx.raw(`date_trunc('milliseconds', now()) - make_interval(days => ?)`, [days]);
    if (profile.lead_forms.length > 0) {
      await trx('external_account_lead_forms').insert(profile.lead_forms.map(({ age_days, ...form }) => ({
        id: newId('xform_'), account_id: account.account_id, external_account_id: id, ...form, locale: FORM_LOCALE,
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

/** How many people the network reports engaging with a post: 50 + (the first two bytes of SHA-256 of its platform
 * id mod 951). */
export function postEngagements(platformPostId: string): number {
  return 50 + (createHash('sha256').update(platformPostId).digest().readUInt16BE(0) % 951);
}
