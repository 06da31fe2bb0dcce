// The sandbox social and ad network: what it holds for a handle is a pure function of SHA-256("<platform>:<handle>")
// (spec/areas/external_accounts.yaml says the rules in words).
import { createHash } from 'node:crypto';
import type { NetworkPost, NetworkProfile } from '../../handlers/external_accounts/index.js';

/** A handle the network has no profile for. */
const UNKNOWN_HANDLE = /^unknown/;

/** The locale of every instant form on the network. */
export const FORM_LOCALE = 'en_US';

export const PROFILE_HOSTS: Record<string, string> = {
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

/** How many people the network reports engaging with a post: 50 + (the first two bytes of SHA-256 of its platform
 * id mod 951). */
export function postEngagements(platformPostId: string): number {
  return 50 + (createHash('sha256').update(platformPostId).digest().readUInt16BE(0) % 951);
}
