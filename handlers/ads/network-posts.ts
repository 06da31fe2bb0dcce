// The ad network's own posts (ad_network_posts): an ad promoting no chosen post is served by a post the network makes
// from the ad; the ad's writes hand it the ad as now written (syncNetworkPost, in their transaction, after the ad row
// is written). And the posts' thumbnails as the ads area shows them: an ad's post_thumbnail_url and an AdPost's
// thumbnail_url.
import type { Knex } from 'knex';
import type { AdPostRow, AdRow } from '../../generated/rows.js';
import { downloadUrl } from '../files/index.js';
import { adNetwork } from './ad-network-port.js';

/** Has the network make or re-render the post of an ad that chose none. */
export async function syncNetworkPost(db: Knex, adId: string): Promise<void> {
  const ad = await db('ads').where({ id: adId }).first('id', 'account_id', 'post_id', 'existing_post_id', 'post_source', 'primary_texts', 'headlines', 'creatives');
  if (!ad || ad.existing_post_id) return;
  await adNetwork().syncPost(db, ad);
}

interface PostMedia { id: string; filename: string | null; visibility: string; content_type: string | null; status: string }

/** A ready image's download link (answered by this server's files area, re-signed at each read); a video's or no
 * media: no thumbnail. */
export function thumbnailOf(media: PostMedia | null): string | null {
  if (!media || media.status !== 'ready' || !media.filename || !media.content_type?.startsWith('image/')) return null;
  return downloadUrl({ id: media.id, filename: media.filename, visibility: media.visibility });
}

/** An ad's post_thumbnail_url: the chosen post's stored thumbnail, else the made post's media. */
export function adPostThumbnailOf(row: AdRow): string | null {
  // spec/areas/ads.yaml post_thumbnail_url.sql: the chosen post's stored thumbnail and the made post's media
  const read = row.$post_thumbnail_url as { stored: string | null; media: PostMedia | null } | null;
  return read?.stored ?? thumbnailOf(read?.media ?? null);
}

/** An AdPost's thumbnail_url. */
export const postThumbnailOf = (row: AdPostRow): string | null => thumbnailOf((row.$thumbnail_url ?? null) as PostMedia | null);
