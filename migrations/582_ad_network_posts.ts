// The sandbox ad network's own posts (spec/areas/ads.yaml AdPost): an ad that promotes no chosen post
// (existing_post_id null) is served by a post the network made from its copy and media; ads.post_id names its row
// here, written in the ad's own transaction (handlers/ads/network-posts.ts) and served by GET /ad_posts/{id}.
// Existing ads' made posts are brought in from the ads they were made for.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table if not exists ad_network_posts (
    id text primary key,
    account_id text not null references accounts(id),
    ad_id text not null references ads(id),
    source text,
    caption text not null,
    media_file_id text references files(id),
    created_at timestamptz(3) not null default date_trunc('milliseconds', clock_now()),
    updated_at timestamptz(3) not null default date_trunc('milliseconds', clock_now()),
    constraint ad_network_posts_source check (source in ('facebook', 'instagram'))
  )`);
  await knex.raw('create index if not exists ad_network_posts_ad on ad_network_posts (ad_id)');
  await knex.raw(`insert into ad_network_posts (id, account_id, ad_id, source, caption, media_file_id, created_at, updated_at)
    select a.id_post, a.account_id, a.id, a.post_source, a.caption, a.media_file_id, a.created_at, a.updated_at from (
      select ads.post_id as id_post, ads.account_id, ads.id, ads.post_source,
        coalesce(ads.primary_texts->0->>'text', ads.headlines->0->>'text', '') as caption,
        (select f.id from files f where f.id = ads.creatives->0->>'id') as media_file_id, ads.created_at, ads.updated_at
      from ads where ads.existing_post_id is null) a
    on conflict (id) do nothing`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists ad_network_posts');
}
