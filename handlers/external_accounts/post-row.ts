// A network post as this area stores it (external_account_posts): its media addresses are the network's
// (social-network-port.ts).
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { socialNetwork, type NetworkPost } from './social-network-port.js';

export function postRow(account: { id: string; account_id: string; platform: string; username: string },
  post: Omit<NetworkPost, 'age_days'>, publishedAt: Knex.Raw | Date) {
  return {
    id: newId('xpost_'), account_id: account.account_id, external_account_id: account.id,
    platform_post_id: post.platform_post_id, media_type: post.media_type, video_id: post.video_id, caption: post.caption,
    ...socialNetwork().postLinks(account, post), call_to_action: 'learn_more',
    published_at: publishedAt,
  };
}
