// The sandbox ad network's own posts: an ad promoting no chosen post is served by a post the network makes from the
// ad: its caption the first primary text (else the first headline, else empty), its media the ad's first creative,
// its source the ad's post_source. The ad's writes call syncNetworkPost in their transaction, after the ad row is
// written, so the post always shows the ad as it now is (copy or creatives changed: the network re-renders it);
// ads.post_id names the row. A post once made stays (an ad that later chose a post keeps its history).
import type { Knex } from 'knex';
import type { Row } from '../../runtime/plain/stored-resource.js';
import { downloadUrl } from '../files/file-links.js';

export async function syncNetworkPost(db: Knex, adId: string): Promise<void> {
  const ad = await db('ads').where({ id: adId }).first('id', 'account_id', 'post_id', 'existing_post_id', 'post_source', 'primary_texts', 'headlines', 'creatives');
  if (!ad || ad.existing_post_id) return;
  const caption = ad.primary_texts?.[0]?.text ?? ad.headlines?.[0]?.text ?? '';
  const mediaFileId = ad.creatives?.[0]?.id ?? null;
  await db('ad_network_posts')
    .insert({ id: ad.post_id, account_id: ad.account_id, ad_id: ad.id, source: ad.post_source ?? null, caption, media_file_id: mediaFileId })
    .onConflict('id').merge({ source: ad.post_source ?? null, caption, media_file_id: mediaFileId, updated_at: db.raw("date_trunc('milliseconds', now())") });
}

interface PostMedia { id: string; filename: string | null; visibility: string; content_type: string | null; status: string }

/** A ready image's download link (answered by this server's files area, re-signed at each read); a video's or no
 * media: no thumbnail. */
export function thumbnailOf(media: PostMedia | null): string | null {
  if (!media || media.status !== 'ready' || !media.filename || !media.content_type?.startsWith('image/')) return null;
  return downloadUrl({ id: media.id, filename: media.filename, visibility: media.visibility });
}

/** An ad's post_thumbnail_url: the chosen post's stored thumbnail, else the made post's media. */
export const adPostThumbnailOf = (row: Row): string | null =>
  (row.$post_thumbnail_url?.stored as string | null) ?? thumbnailOf((row.$post_thumbnail_url?.media ?? null) as PostMedia | null);

/** An AdPost's thumbnail_url. */
export const postThumbnailOf = (row: Row): string | null => thumbnailOf((row.$thumbnail_url ?? null) as PostMedia | null);
