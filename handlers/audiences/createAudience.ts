// Written by hand, not declared plain: source-specific fields and a build job.
import type { Handler } from '../../generated/handler.js';
import type { HandlerContext } from '../../generated/handler.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { buildJob } from './build.js';
import { customerListSize, engagementSize, lookalikeSize, type EngagementRule } from './audience-size.js';

type Body = Parameters<Handler<'createAudience'>>[0]['body'];

/** Which body fields each source_type takes; any other is refused, naming it. */
const TAKES: Record<Body['source_type'], (keyof Body)[]> = {
  customer_list: ['file_id', 'column_mapping'], engagement: ['engagement'], lookalike: ['source_audience_id', 'lookalike_ratio'],
};
const DEFINITION_FIELDS: (keyof Body)[] = ['engagement', 'source_audience_id', 'lookalike_ratio', 'file_id', 'column_mapping'];
/** The largest customer list file the network takes. */
export const MAX_LIST_BYTES = 10 * 1024 * 1024;
const LIST_CONTENT_TYPES = ['text/csv', 'text/plain'];
/** Only built audiences have the size a lookalike multiplies. */
const BUILT = ['ready', 'partial'];

/** Platforms each engagement source exists on. */
const SOURCE_PLATFORMS: Record<EngagementRule['source'], string[]> = {
  videos: ['facebook', 'instagram', 'x', 'youtube', 'tiktok'],
  lead_forms: ['facebook'],
  pages: ['facebook'],
  social_profiles: ['instagram', 'x', 'youtube', 'tiktok'],
};

/** POST /audiences: the runtime has checked ads:manage on account_id. The definition is checked against the
 * account's own external accounts, posts and audiences (another account's are 404s naming the field), then sized. */
export const createAudience: Handler<'createAudience'> = async ({ body }, ctx) => {
  for (const field of DEFINITION_FIELDS) {
    if (body[field] !== undefined && !TAKES[body.source_type].includes(field)) {
      throw invalid(`A ${body.source_type} audience does not take ${field}`, field);
    }
  }
  let definition: { engagement: string | null; source_audience_id: string | null; lookalike_ratio: number | null; size: number;
    file_id?: string; column_mapping?: string };
  if (body.source_type === 'engagement') {
    if (!body.engagement) throw invalid('An engagement audience needs engagement.rules', 'engagement');
    const rules = await checkRules(ctx, body.account_id, body.engagement.rules);
    definition = { engagement: JSON.stringify({ rules }), source_audience_id: null, lookalike_ratio: null,
      size: await engagementSize(ctx.db, rules) };
  } else if (body.source_type === 'lookalike') {
    if (body.source_audience_id === undefined) throw invalid('A lookalike audience needs source_audience_id', 'source_audience_id');
    const source = await ctx.db('audiences').where({ id: body.source_audience_id, account_id: body.account_id })
      .whereNull('deleted_at').first();
    if (!source) throw notFound('audience', body.source_audience_id, 'source_audience_id');
    if (source.source_type === 'lookalike') throw invalid('A lookalike cannot be made from another lookalike', 'source_audience_id');
    if (!BUILT.includes(source.status)) throw invalid(`Audience ${source.id} is ${source.status}: a lookalike needs a built source`, 'source_audience_id');
    const ratio = body.lookalike_ratio ?? 1;
    definition = { engagement: null, source_audience_id: source.id, lookalike_ratio: ratio,
      size: lookalikeSize(Number(source.size), ratio) };
  } else if (body.file_id !== undefined) {
    definition = { engagement: null, source_audience_id: null, lookalike_ratio: null, size: 0,
      ...await checkListFile(ctx, body.account_id, body.file_id, body.column_mapping) };
  } else {
    if (body.column_mapping !== undefined) throw invalid('column_mapping goes with file_id', 'column_mapping');
    definition = { engagement: null, source_audience_id: null, lookalike_ratio: null,
      size: await customerListSize(ctx.db, body.account_id) };
  }
  const id = newId('adaud_');
  await ctx.db('audiences').insert({
    id, account_id: body.account_id, name: body.name, source_type: body.source_type, status: 'pending', ...definition,
  });
  await ctx.addJob(...buildJob(id));
  return readView(ctx.db, resources.Audience, id);
};

/** A customer list file: a ready CSV of the account, small enough, with email or phone mapped. */
async function checkListFile(ctx: HandlerContext, accountId: string, fileId: string, mapping: Body['column_mapping']) {
  if (!mapping) throw invalid('A customer list file needs column_mapping', 'column_mapping');
  if (!mapping.email && !mapping.phone) throw invalid('column_mapping needs email or phone: the network matches by them', 'column_mapping');
  const file = await ctx.db('files').where({ id: fileId, owner_account_id: accountId }).first('id', 'status', 'content_type', 'size');
  if (!file) throw notFound('file', fileId, 'file_id');
  if (file.status !== 'ready') throw invalid(`File ${fileId} is not ready: upload its bytes first`, 'file_id');
  if (!LIST_CONTENT_TYPES.includes(file.content_type)) throw invalid(`File ${fileId} is ${file.content_type}, not a CSV file`, 'file_id');
  if (Number(file.size) > MAX_LIST_BYTES) throw invalid(`A customer list file holds at most ${MAX_LIST_BYTES} bytes`, 'file_id');
  return { file_id: file.id as string, column_mapping: JSON.stringify({ email: null, phone: null, first_name: null, last_name: null, country: null, ...mapping }) };
}

/** Each rule names a connected external account of the account, a source its platform has and, for videos, only
 * its video posts. */
async function checkRules(ctx: HandlerContext, accountId: string,
  rules: NonNullable<Body['engagement']>['rules']): Promise<EngagementRule[]> {
  if (rules.length === 0) throw invalid('An engagement audience needs at least one rule', 'engagement.rules');
  const checked: EngagementRule[] = [];
  for (const [i, rule] of rules.entries()) {
    const at = `engagement.rules.${i}`;
    const external = await ctx.db('external_accounts').where({ id: rule.external_account_id, account_id: accountId })
      .whereNull('deleted_at').first();
    if (!external) throw notFound('external account', rule.external_account_id, `${at}.external_account_id`);
    if (external.status !== 'connected') {
      throw invalid(`External account ${external.id} is ${external.status}, not connected`, `${at}.external_account_id`);
    }
    if (!SOURCE_PLATFORMS[rule.source].includes(external.platform)) {
      throw invalid(`A ${external.platform} external account has no ${rule.source}`, `${at}.source`);
    }
    let postIds: string[] | null = null;
    if (rule.post_ids !== undefined) {
      if (rule.source !== 'videos') throw invalid('Only a videos rule takes post_ids', `${at}.post_ids`);
      postIds = [...new Set(rule.post_ids)];
      const found = await ctx.db('external_account_posts')
        .where({ external_account_id: external.id, media_type: 'video' }).whereIn('id', postIds).pluck('id');
      const missing = postIds.find((id) => !found.includes(id));
      if (missing) throw invalid(`Post ${missing} is not a video post of ${external.id}`, `${at}.post_ids`);
    }
    checked.push({ source: rule.source, external_account_id: external.id, post_ids: postIds,
      retention_days: rule.retention_days ?? 30 });
  }
  return checked;
}
