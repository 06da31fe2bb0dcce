// A user's personal recommended actions (spec/areas/recommended_actions.yaml), from what the user's rows show now:
// indexed existence checks in one statement, like the account rules.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { applying, step, type Rule } from './rules.js';

interface Facts { owns_account: boolean; refers: boolean }

const FACTS = `select
  exists (select 1 from accounts where owner_user_id = $1) as owns_account,
  exists (select 1 from partner_referral_requests where user_id = $1)
    or exists (select 1 from partner_businesses where partner_user_id = $1) as refers`;

const RULES: Rule<Facts, 'create_business' | 'become_affiliate'>[] = [
  { action: 'create_business', applies: (f) => !f.owns_account, impact: 95, title: 'Start a business',
    description: 'An account of your own sells products, takes payments and pays you out.',
    reasoning: 'You own no account.', cta_label: 'Create business', blocked: [],
    steps: [step('POST', '/accounts', 'Create your account.')] },
  { action: 'become_affiliate', applies: (f) => !f.refers, impact: 40, title: 'Become an affiliate',
    description: 'Businesses created through your referral link earn you a share of their platform fees.',
    reasoning: 'You have no referral link and have referred no business.', cta_label: 'Get referral link', blocked: [],
    steps: [step('POST', '/partners/referral_requests', 'Ask for your referral link (request_type link) and share it.')] },
];

/** The personal actions that apply to the user now, highest impact first. */
export async function personalActions(db: Knex, userId: string) {
  const [facts] = await query<Facts>(db, FACTS, [userId]);
  return applying(RULES, facts!);
}
