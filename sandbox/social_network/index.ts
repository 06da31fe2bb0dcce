// The sandbox social network (profiles.ts), served through the external accounts area's port.
import type { SocialNetwork } from '../../handlers/external_accounts/index.js';
import { FORM_LOCALE, lookUpProfile, postEngagements, PROFILE_HOSTS } from './profiles.js';

export { FORM_LOCALE, lookUpProfile, postEngagements } from './profiles.js';

export const sandboxSocialNetwork: SocialNetwork = {
  async lookUpProfile(platform, username) {
    const profile = lookUpProfile(platform, username);
    return profile ? { profile } : { missing: `The sandbox network has no ${platform} profile @${username}` };
  },
  postLinks(account, post) {
    const host = PROFILE_HOSTS[account.platform]!;
    const media = `https://${host}/${account.username}/posts/${post.platform_post_id}`;
    return {
      media_url: `${media}/media.${post.media_type === 'video' ? 'mp4' : 'jpg'}`, thumbnail_url: `${media}/thumbnail.jpg`,
      destination_url: `https://${host}/${account.username}`,
    };
  },
  postEngagements,
  formLocale: FORM_LOCALE,
};
