// retry_ads_payment: the job the retry operation (retryAdsPayment.ts) queues, one at a time per account. The ads
// area runs it (handlers/ads/retry-ads-payment.ts): the failed charges it retries are the ads area's.
export const RETRY_ADS_PAYMENT_TASK = 'retry_ads_payment';
export const retryJobKey = (accountId: string) => `${RETRY_ADS_PAYMENT_TASK}:${accountId}`;
