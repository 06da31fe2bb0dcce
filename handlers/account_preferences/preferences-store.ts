// The stored preferences document (account_preferences.document) and its defaults. Storage keeps only what
// was chosen: payment method references, the integration's key in full; views expand and mask them.
import type { Knex } from 'knex';
import { nowMs } from '../shared/now.js';

export type AdsPaymentMethodType = 'platform_balance' | 'card';
export interface StoredAdsPaymentMethod { type: AdsPaymentMethodType; id: string }

export interface StoredPreferences {
  ads_agreement: {
    status: 'not_required' | 'pending_signature' | 'signed';
    agreement_version: string | null;
    printed_name: string | null;
    accepted_at: string | null;
  };
  ads_payment_methods: { primary: StoredAdsPaymentMethod | null; backup: StoredAdsPaymentMethod | null } | null;
  ads_reporting_currency: string;
  ads_scheduling_timezone: string;
  /** the key is kept in full because the reporting partner needs it; responses only ever show it masked */
  ads_triplewhale_integration: { api_key: string | null; shop_domain: string | null };
  cards_auto_top_up: boolean;
  cards_notifications: boolean;
  dispute_fighter_enabled: boolean;
}

export function defaultPreferences(): StoredPreferences {
  return {
    ads_agreement: { status: 'not_required', agreement_version: null, printed_name: null, accepted_at: null },
    ads_payment_methods: null,
    ads_reporting_currency: 'usd',
    ads_scheduling_timezone: 'America/New_York',
    ads_triplewhale_integration: { api_key: null, shop_domain: null },
    cards_auto_top_up: false,
    cards_notifications: true,
    dispute_fighter_enabled: false,
  };
}

/** The account's document over the defaults; an account that never saved preferences has no row. */
export async function loadPreferences(db: Knex, accountId: string): Promise<StoredPreferences> {
  const row = await db('account_preferences').where({ account_id: accountId }).first('document');
  return { ...defaultPreferences(), ...(row?.document ?? {}) };
}

/** The document to change and save in this transaction: the account row is locked first, as every writer of the
 * document does, so two writers (a PATCH of preferences, the agreement's signature) never both change what they read. */
export async function loadPreferencesForUpdate(db: Knex, accountId: string): Promise<StoredPreferences> {
  await db('accounts').where({ id: accountId }).forUpdate().first('id');
  return loadPreferences(db, accountId);
}

export async function savePreferences(db: Knex, accountId: string, document: StoredPreferences): Promise<void> {
  await db('account_preferences')
    .insert({ account_id: accountId, document: JSON.stringify(document) })
    .onConflict('account_id')
    .merge({ document: JSON.stringify(document), updated_at: nowMs(db) });
}
