// Ads billing sources: a balance (ldgr_) or a saved card (payt_) of the account. Writes are checked against
// the account's own rows; reads expand the card facts and balance title from those rows.
import type { Knex } from 'knex';
import type { AdsPaymentMethod, AdsPaymentMethodChoice } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import type { StoredAdsPaymentMethod, StoredPreferences } from './preferences-store.js';
import type { Tables } from '../../generated/rows.js';

type Stored = StoredPreferences['ads_payment_methods'];
type Slot = 'primary' | 'backup';
export interface AdsPaymentMethodsWrite { primary?: AdsPaymentMethodChoice | null; backup?: AdsPaymentMethodChoice | null }

const PREFIX: Record<AdsPaymentMethodChoice['type'], string> = { platform_balance: 'ldgr_', card: 'payt_' };
/** A cards balance funds card spending only; ads are billed from the business or a personal balance. */
const BILLABLE_BALANCE_KINDS = ['business', 'personal'];

async function checkChoice(db: Knex, accountId: string, slot: Slot, choice: AdsPaymentMethodChoice): Promise<void> {
  const param = `ads_payment_methods.${slot}.id`;
  if (!choice.id.startsWith(PREFIX[choice.type])) {
    throw invalid(`A ${choice.type} ads payment method needs a ${PREFIX[choice.type]} id; got '${choice.id}'`, param);
  }
  if (choice.type === 'platform_balance') {
    const balance = await db('ledger_accounts').where({ id: choice.id, account_id: accountId }).first('kind');
    if (!balance) throw invalid(`No such balance on this account: '${choice.id}'`, param);
    if (!BILLABLE_BALANCE_KINDS.includes(balance.kind)) {
      throw invalid(`Ads cannot be billed from a ${balance.kind} balance; choose the business or a personal balance`, param);
    }
    return;
  }
  const method = await db('payment_methods').where({ id: choice.id, account_id: accountId }).first('type');
  if (!method) throw invalid(`No such saved payment method on this account: '${choice.id}'`, param);
  if (method.type !== 'card') throw invalid(`'${choice.id}' is a ${method.type}, not a card`, param);
}

/** The stored choice after a write: sent keys replace, null removes, a null object clears ads billing. */
export async function applyAdsPaymentMethodsWrite(
  db: Knex, accountId: string, current: Stored, write: AdsPaymentMethodsWrite | null,
): Promise<Stored> {
  if (write === null) return null;
  const next = { primary: current?.primary ?? null, backup: current?.backup ?? null };
  for (const slot of ['primary', 'backup'] as const) {
    const choice = write[slot];
    if (choice === undefined) continue;
    if (choice !== null) await checkChoice(db, accountId, slot, choice);
    next[slot] = choice === null ? null : { type: choice.type, id: choice.id };
  }
  if (next.backup && !next.primary) {
    throw invalid('A backup ads payment method needs a primary one to back up', 'ads_payment_methods.backup');
  }
  if (next.backup && next.primary && next.backup.id === next.primary.id) {
    throw invalid('The backup ads payment method must differ from the primary one', 'ads_payment_methods.backup.id');
  }
  return next;
}

/** What a business balance shows of its account. */
type AccountShown = Pick<Tables['accounts'], 'title' | 'logo_url'>;

async function expand(db: Knex, account: AccountShown, stored: StoredAdsPaymentMethod | null): Promise<AdsPaymentMethod | null> {
  if (!stored) return null;
  const base: AdsPaymentMethod = {
    type: stored.type, id: stored.id, card_brand: null, exp_month: null, exp_year: null, last4: null, icon_url: null, title: null,
  };
  if (stored.type === 'card') {
    const card = await db('payment_methods').where({ id: stored.id }).first('card_brand', 'exp_month', 'exp_year', 'last4');
    return card ? { ...base, card_brand: card.card_brand, exp_month: card.exp_month, exp_year: card.exp_year, last4: card.last4 } : base;
  }
  const balance = await db('ledger_accounts as l').leftJoin('users as u', 'u.id', 'l.user_id')
    .where('l.id', stored.id).first('l.kind', 'l.title', 'u.profile_picture_url');
  if (!balance) return base;
  if (balance.kind === 'personal') return { ...base, icon_url: balance.profile_picture_url ?? null };
  return { ...base, title: balance.title ?? account.title, icon_url: account.logo_url ?? null };
}

export async function adsPaymentMethodsView(db: Knex, account: AccountShown, stored: Stored) {
  if (!stored) return null;
  // One after the other: db may be a transaction, whose single connection takes one query at a time.
  const primary = await expand(db, account, stored.primary);
  return { primary, backup: await expand(db, account, stored.backup) };
}
