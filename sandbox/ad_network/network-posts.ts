// The sandbox ad network's own posts: an ad promoting no chosen post is served by a post the network makes from the
// ad: its caption the first primary text (else the first headline, else empty), its media the ad's first creative,
// its source the ad's post_source. The ad's writes sync it in their transaction, after the ad row is written, so the
// post always shows the ad as it now is (copy or creatives changed: the network re-renders it); the ad's post_id
// names the row. A post once made stays (an ad that later chose a post keeps its history).
import type { Knex } from 'knex';
import type { AdCopy } from '../../handlers/ads/index.js';

export async function syncNetworkPost(db: Knex, ad: AdCopy): Promise<void> {
  const caption = ad.primary_texts?.[0]?.text ?? ad.headlines?.[0]?.text ?? '';
  const mediaFileId = ad.creatives?.[0]?.id ?? null;
  await db('ad_network_posts')
    .insert({ id: ad.post_id, account_id: ad.account_id, ad_id: ad.id, source: ad.post_source ?? null, caption, media_file_id: mediaFileId })
    .onConflict('id').merge({ source: ad.post_source ?? null, caption, media_file_id: mediaFileId, updated_at: db.raw("date_trunc('milliseconds', now())") });
}
