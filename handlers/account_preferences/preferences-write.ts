// A PATCH body applied to the stored document: each sent field is checked and replaces the stored one.
// economic_intelligence_duration_key is account state, not document state; see economic-intelligence.ts.
import type { Knex } from 'knex';
import type { UpdateAccountPreferencesInput } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import type { StoredPreferences } from './preferences-store.js';
import { applyAdsPaymentMethodsWrite } from './ads-payment-methods.js';
import { applyIntegrationWrite } from './triplewhale-integration.js';
import { canonicalTimezone, checkReportingCurrency } from './regional-settings.js';
import { hasCardsBalance } from './cards-balance.js';

type Body = UpdateAccountPreferencesInput['body'];

export async function applyPreferencesWrite(db: Knex, accountId: string, current: StoredPreferences, body: Body): Promise<StoredPreferences> {
  const next = { ...current };
  if (body.ads_payment_methods !== undefined) {
    next.ads_payment_methods = await applyAdsPaymentMethodsWrite(db, accountId, current.ads_payment_methods, body.ads_payment_methods);
  }
  if (body.ads_reporting_currency !== undefined) next.ads_reporting_currency = checkReportingCurrency(body.ads_reporting_currency);
  if (body.ads_scheduling_timezone !== undefined) next.ads_scheduling_timezone = canonicalTimezone(body.ads_scheduling_timezone);
  if (body.ads_triplewhale_integration !== undefined) {
    next.ads_triplewhale_integration = applyIntegrationWrite(current.ads_triplewhale_integration, body.ads_triplewhale_integration);
  }
  if (body.cards_auto_top_up !== undefined) {
    if (body.cards_auto_top_up && !(await hasCardsBalance(db, accountId))) {
      throw invalid('cards_auto_top_up needs a cards balance, and this account has none', 'cards_auto_top_up');
    }
    next.cards_auto_top_up = body.cards_auto_top_up;
  }
  if (body.cards_notifications !== undefined) next.cards_notifications = body.cards_notifications;
  if (body.dispute_fighter_enabled !== undefined) next.dispute_fighter_enabled = body.dispute_fighter_enabled;
  return next;
}
