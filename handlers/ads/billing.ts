// Billing of ad spend: each delivered hour of a campaign is one charge (ad_charges), tried on the account's
// ads_payment_methods.primary, then its backup. A balance pays through the ledger (available to fees, one entry
// per attempt); a saved card through the sandbox processor's decision for that card. Each attempt runs in a
// savepoint, so a refused one leaves nothing behind.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { postEntry } from '../ledger/index.js';
import { cardProcessor, type CardBehaviour } from '../shared/card-processor-port.js';
import { loadPreferences, type StoredAdsPaymentMethod } from '../account_preferences/index.js';
import { nowMs } from '../shared/now.js';

export interface Charge { id: string; account_id: string; amount: number | string; currency: string; attempts: number }
type Outcome = { ok: true; method: StoredAdsPaymentMethod } | { ok: false; reason: string };

async function attempt(db: Knex, charge: Charge, method: StoredAdsPaymentMethod): Promise<string | null> {
  const amount = Number(charge.amount);
  if (method.type === 'platform_balance') {
    try {
      await db.transaction(async (sp) => {
        await postEntry(sp, `${charge.id}:${charge.attempts}:${method.id}`, charge.currency, [
          { ledger: method.id, bucket: 'available', amount: -amount },
          { ledger: method.id, bucket: 'fees', amount },
        ]);
      });
      return null;
    } catch (e) {
      if (e instanceof ApiError && e.type === 'insufficient_funds') return 'insufficient_funds';
      throw e;
    }
  }
  const card = await db('payment_methods').where({ id: method.id, account_id: charge.account_id }).first('test_behaviour');
  if (!card) return 'payment_method_missing';
  const decision = cardProcessor().decideCharge((card.test_behaviour ?? 'succeeds') as CardBehaviour, 'not_required');
  return decision.approved ? null : decision.code;
}

/** Primary, then backup; the first that pays settles the charge. */
export async function collect(db: Knex, charge: Charge): Promise<Outcome> {
  const methods = (await loadPreferences(db, charge.account_id)).ads_payment_methods;
  const order = [methods?.primary, methods?.backup].filter((m): m is StoredAdsPaymentMethod => !!m);
  if (order.length === 0) return { ok: false, reason: 'no_payment_method' };
  let reason = '';
  for (const method of order) {
    const failure = await attempt(db, charge, method);
    if (failure === null) return { ok: true, method };
    reason = failure;
  }
  return { ok: false, reason };
}

/** A campaign's charge for one delivered hour, collected now; answers whether it was paid. */
export async function chargeHour(db: Knex, campaign: { id: string; account_id: string; currency: string }, hour: Date, amount: number): Promise<boolean> {
  const charge: Charge = { id: newId('adchg_'), account_id: campaign.account_id, amount, currency: campaign.currency, attempts: 1 };
  const outcome = await collect(db, charge);
  await db('ad_charges').insert({
    id: charge.id, account_id: campaign.account_id, ad_campaign_id: campaign.id, hour, amount, currency: campaign.currency,
    status: outcome.ok ? 'succeeded' : 'failed', method_type: outcome.ok ? outcome.method.type : null,
    method_id: outcome.ok ? outcome.method.id : null, failure_reason: outcome.ok ? null : outcome.reason,
  });
  return outcome.ok;
}

/** Another try of a failed charge; answers whether it is now paid. */
export async function retryCharge(db: Knex, row: Charge): Promise<boolean> {
  const charge = { ...row, attempts: row.attempts + 1 };
  const outcome = await collect(db, charge);
  await db('ad_charges').where({ id: row.id }).update({
    attempts: charge.attempts, status: outcome.ok ? 'succeeded' : 'failed', updated_at: nowMs(db),
    method_type: outcome.ok ? outcome.method.type : null, method_id: outcome.ok ? outcome.method.id : null,
    failure_reason: outcome.ok ? null : outcome.reason,
  });
  return outcome.ok;
}

export const paymentIssue = (campaignId: string, reason: string) => ({
  id: 'payment_failed',
  message: `The charge for this campaign's spend failed on every ads payment method (${reason}); delivery is stopped until POST /accounts/{id}/retry_ads_payment succeeds`,
  resource_id: campaignId,
  resource_type: 'ad_campaign',
});
