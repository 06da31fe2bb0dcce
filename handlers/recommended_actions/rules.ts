// The recommended-action rules (spec/areas/recommended_actions.yaml says them in words): each applies to what the
// account's rows show now, read in one statement of indexed existence checks (each stops at its first row, so the
// cost never follows the account's history).
import type { Knex } from 'knex';
import type { RecommendedAction, RecommendedActionStep } from '../../generated/types.js';
import { query } from '../../runtime/request-db.js';

interface Facts {
  has_product: boolean; has_variant: boolean; has_payout_method: boolean;
  has_payment: boolean; has_event: boolean; has_webhook: boolean;
}

const FACTS = `select
  exists (select 1 from products where account_id = $1 and deleted_at is null) as has_product,
  exists (select 1 from plans where account_id = $1 and deleted_at is null) as has_variant,
  exists (select 1 from payout_methods where account_id = $1) as has_payout_method,
  exists (select 1 from payments where account_id = $1) as has_payment,
  exists (select 1 from tracked_events where account_id = $1) as has_event,
  exists (select 1 from webhooks where account_id = $1 and deleted_at is null) as has_webhook`;

type Action = RecommendedAction['action'];
/** A rule over the facts F of an account (or a user): the action it recommends when it applies. */
export interface Rule<F, A extends string = Action> {
  action: A; applies: (f: F) => boolean; impact: number; title: string; description: string;
  reasoning: string; cta_label: string; blocked: string[]; steps: RecommendedActionStep[];
}

export const step = (method: RecommendedActionStep['method'], path: string, description: string): RecommendedActionStep => ({ method, path, description });

/** Highest impact first: the order the list answers in. */
const RULES: Rule<Facts>[] = [
  { action: 'create_product', applies: (f) => !f.has_product, impact: 100, title: 'Create your first product',
    description: 'A product with a variant and a checkout configuration is what buyers pay for.',
    reasoning: 'The account has no live product.', cta_label: 'Create product', blocked: ['accept_card_payments'],
    steps: [step('POST', '/products', 'Create the product.'), step('POST', '/variants', 'Give it a price.'),
      step('POST', '/checkout_configurations', 'Make a checkout link for it.')] },
  { action: 'create_plan', applies: (f) => f.has_product && !f.has_variant, impact: 90, title: 'Add a price to your product',
    description: 'A variant sets the price and billing of a product.',
    reasoning: 'The account has a product but no live variant.', cta_label: 'Add variant', blocked: ['accept_card_payments'],
    steps: [step('POST', '/variants', 'Give the product a price.'), step('POST', '/checkout_configurations', 'Make a checkout link for it.')] },
  { action: 'add_payout_method', applies: (f) => !f.has_payout_method, impact: 80, title: 'Set up payouts',
    description: 'A payout method is where the account\'s balance is paid out.',
    reasoning: 'The account has no payout method.', cta_label: 'Add payout method', blocked: ['standard_payout', 'instant_payout'],
    steps: [step('GET', '/payouts/supported_methods', 'Choose a rail for your country and currency.'),
      step('POST', '/payouts/methods', 'Save the destination.')] },
  { action: 'share_checkout_link', applies: (f) => f.has_variant && !f.has_payment, impact: 70, title: 'Make your first sale',
    description: 'Share a checkout link so buyers can pay.',
    reasoning: 'The account has a live variant but no payment yet.', cta_label: 'Get checkout link', blocked: [],
    steps: [step('POST', '/checkout_configurations', 'Make a checkout link and share its purchase_url.')] },
  { action: 'track_events', applies: (f) => !f.has_event, impact: 50, title: 'Track conversions',
    description: 'Tracked events link visitors to purchases, so you can see what converts.',
    reasoning: 'The account has tracked no event.', cta_label: 'Track an event', blocked: [],
    steps: [step('POST', '/events', 'Send page views and conversions with the visitor\'s anonymous id.')] },
  { action: 'create_webhook', applies: (f) => !f.has_webhook, impact: 30, title: 'Receive webhooks',
    description: 'A webhook subscription tells your server about payments, payouts and disputes as they happen.',
    reasoning: 'The account has no webhook subscription.', cta_label: 'Add webhook', blocked: [],
    steps: [step('POST', '/webhooks', 'Subscribe your server\'s URL.')] },
];

/** The actions of the rules that apply to `facts`, in the rules' order (highest impact first). */
export function applying<F, A extends string>(rules: Rule<F, A>[], facts: F) {
  return rules.filter((r) => r.applies(facts)).map((r) => ({
    action: r.action, title: r.title, description: r.description, reasoning: r.reasoning, cta: r.steps[0]!.path,
    cta_label: r.cta_label, status: 'optional' as const, impact_score: r.impact, icon_url: null,
    blocked_capabilities: r.blocked, steps: r.steps,
  }));
}

/** The actions the rules recommend for the account now, highest impact first. */
export async function recommendedActions(db: Knex, accountId: string): Promise<RecommendedAction[]> {
  const [facts] = await query<Facts>(db, FACTS, [accountId]);
  return applying(RULES, facts!);
}
