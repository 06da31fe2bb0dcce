// The rules an ad's fields meet, on create and on update alike: copy against translations, external accounts and
// the chosen post of the ad's own account. Returns the columns to write.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { invalid } from '../../runtime/errors.js';
import { checkCopy, COPY_FIELDS, storedCopy, type Copy, type CopyEntry, type Translations } from './copy.js';
import { checkExistingPost, checkExternalAccounts } from './references.js';
import { checkCreatives, type CreativeInput } from './creatives.js';
import { leadFormColumns, type LeadFormChange } from './lead-forms.js';
import type { AdGroupRow, AdRow } from '../../generated/rows.js';

export interface AdFields extends LeadFormChange {
  creatives?: CreativeInput[];
  primary_texts?: CopyEntry[]; headlines?: CopyEntry[]; descriptions?: CopyEntry[];
  translations?: Translations | null;
  external_accounts?: { id: string }[];
  existing_post_id?: string | null;
  post_source?: 'facebook' | 'instagram' | null;
}

/** `ad` is where the ad lives; `current` is the stored ad (for an update) whose fields stand where the body sends
 * none. */
export async function adColumns(db: Knex, ad: Pick<AdRow | AdGroupRow, 'account_id' | 'ad_campaign_id'>, body: AdFields,
  current?: AdRow): Promise<Record<string, unknown>> {
  const accountId = ad.account_id;
  const out: Record<string, unknown> = {};
  const translations = body.translations !== undefined ? body.translations : (current?.translations ?? null);
  const copy = Object.fromEntries(COPY_FIELDS.map((f) => [f, body[f] ?? current?.[f] ?? []])) as Copy;
  checkCopy(copy, translations);
  for (const f of COPY_FIELDS) if (body[f] !== undefined || !current) out[f] = JSON.stringify(storedCopy(copy[f]));
  if (body.translations !== undefined || !current) out.translations = translations ? JSON.stringify(translations) : null;

  const externalAccounts = body.external_accounts ?? current?.external_accounts ?? [];
  if (body.external_accounts !== undefined) {
    await checkExternalAccounts(db, accountId, externalAccounts);
    out.external_accounts = JSON.stringify(externalAccounts.map((a: { id: string }) => ({ id: a.id })));
  } else if (!current) out.external_accounts = '[]';

  const chosen = body.existing_post_id !== undefined ? body.existing_post_id : (current?.existing_post_id ?? null);
  if (body.existing_post_id !== undefined || body.external_accounts !== undefined || !current) {
    if (chosen) {
      const post = await checkExistingPost(db, chosen, externalAccounts.map((a: { id: string }) => a.id));
      Object.assign(out, { existing_post_id: chosen, post_id: chosen, post_thumbnail_url: post.thumbnail_url, post_source: post.source });
    } else if (!current || current.existing_post_id) {
      // The network makes its own post from the ad: that is the post it serves (stored by the caller, after the ad
      // row, with syncNetworkPost: handlers/ads/network-posts.ts, made by the ad network).
      Object.assign(out, { existing_post_id: null, post_id: newId('post_'), post_thumbnail_url: null });
    }
  }
  if (body.creatives !== undefined || !current) out.creatives = await checkCreatives(db, accountId, body.creatives ?? []);
  if (body.lead_form !== undefined || body.lead_form_id !== undefined || body.external_accounts !== undefined) {
    const { objective } = await db('ad_campaigns').where({ id: ad.ad_campaign_id }).first('objective');
    Object.assign(out, await leadFormColumns(db, objective, externalAccounts.map((a: { id: string }) => a.id), body,
      body.external_accounts !== undefined, current));
  }
  if (body.post_source !== undefined && out.post_source === undefined) out.post_source = body.post_source;
  if (chosen && body.post_source != null && body.post_source !== out.post_source && out.post_source !== undefined) {
    throw invalid(`The chosen post is a ${out.post_source as string} post`, 'post_source');
  }
  return out;
}
