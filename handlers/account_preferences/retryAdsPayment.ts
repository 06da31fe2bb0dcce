// Written by hand, not declared plain: locks the account but answers an AdsPaymentRetry (queued once per account), not the account.
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { adsPaymentRetryView } from './ads-payment-retry-view.js';
import { RETRY_ADS_PAYMENT_TASK, retryJobKey } from './retry-ads-payment-task.js';

/** POST /accounts/{id}/retry_ads_payment: one queued retry per account at a time; a repeat call returns it. */
export const retryAdsPayment: Handler<'retryAdsPayment'> = async ({ path }, ctx) => {
  // Locking the account makes "is one queued?" and "queue one" a single step for concurrent callers.
  const account = await ctx.db('accounts').where({ id: path.id }).forUpdate().first('id');
  if (!account) throw notFound('account', path.id, 'id');
  const queued = await ctx.db('ads_payment_retries').where({ account_id: account.id, status: 'queued' }).first();
  if (queued) return adsPaymentRetryView(queued);
  const [row] = await ctx.db('ads_payment_retries')
    .insert({ id: newId('adretry_'), account_id: account.id, status: 'queued' })
    .returning('*');
  await ctx.addJob(RETRY_ADS_PAYMENT_TASK, { retry_id: row.id }, { jobKey: retryJobKey(account.id) });
  return adsPaymentRetryView(row);
};
