// An audience's size from real data (the rules are in spec/areas/audiences.yaml): a customer list counts the
// account's joined members, an engagement audience sums the sandbox network's engagement of the posts its rules
// reach, a lookalike multiplies its source's size. Integer arithmetic throughout.
import type { Knex } from 'knex';
import { socialNetwork } from '../external_accounts/index.js';

export interface EngagementRule {
  source: 'videos' | 'lead_forms' | 'social_profiles' | 'pages';
  external_account_id: string;
  post_ids: string[] | null;
  retention_days: number;
}

/** Lookalike size: the source's size x LOOKALIKE_MULTIPLE x ratio (percent). */
export const LOOKALIKE_MULTIPLE = 100;

export async function customerListSize(db: Knex, accountId: string): Promise<number> {
  const [{ n }] = await db('members').where({ account_id: accountId, status: 'joined' }).count({ n: '*' });
  return Number(n);
}

export async function engagementSize(db: Knex, rules: EngagementRule[]): Promise<number> {
  let size = 0;
  for (const rule of rules) {
    const q = db('external_account_posts').where({ external_account_id: rule.external_account_id })
      .whereRaw(`published_at >= now() - make_interval(days => ?)`, [rule.retention_days]).select('platform_post_id');
    if (rule.source === 'videos') {
      q.where({ media_type: 'video' });
      if (rule.post_ids) q.whereIn('id', rule.post_ids);
    }
    const posts: { platform_post_id: string }[] = await q;
    const engaged = posts.reduce((sum, p) => sum + socialNetwork().postEngagements(p.platform_post_id), 0);
    size += rule.source === 'lead_forms' ? Math.floor(engaged / 10) : engaged;
  }
  return size;
}

export const lookalikeSize = (sourceSize: number, ratio: number): number => sourceSize * LOOKALIKE_MULTIPLE * ratio;
