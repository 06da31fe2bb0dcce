// Stored preferences + the account row -> the AccountPreferences document.
import type { Knex } from 'knex';
import type { AccountPreferences } from '../../generated/types.js';
import type { AccountRow } from '../accounts/index.js';
import type { StoredPreferences } from './preferences-store.js';
import { adsPaymentMethodsView } from './ads-payment-methods.js';
import { integrationView } from './triplewhale-integration.js';
import { economicIntelligenceView } from './economic-intelligence.js';
import { hasCardsBalance } from './cards-balance.js';

export async function preferencesView(db: Knex, account: AccountRow, stored: StoredPreferences): Promise<AccountPreferences> {
  // Sequential: db may be the request's transaction, one connection that takes one query at a time.
  const adsPaymentMethods = await adsPaymentMethodsView(db, account, stored.ads_payment_methods);
  const cardsBalance = await hasCardsBalance(db, account.id);
  return {
    ads_agreement: stored.ads_agreement,
    ads_payment_methods: adsPaymentMethods,
    ads_reporting_currency: stored.ads_reporting_currency,
    ads_scheduling_timezone: stored.ads_scheduling_timezone,
    ads_triplewhale_integration: integrationView(stored.ads_triplewhale_integration),
    // Without a cards balance there is nothing to top up, whatever was stored before it went away.
    cards_auto_top_up: cardsBalance && stored.cards_auto_top_up,
    cards_notifications: stored.cards_notifications,
    dispute_fighter_enabled: stored.dispute_fighter_enabled,
    economic_intelligence: economicIntelligenceView(account),
  };
}
