// The ownership proof of a payment method domain: a DNS TXT record holding the registration's token, which the
// verify_payment_method_domain job looks up through the DNS port (dns-port.ts). The job locks and re-reads the
// domain and does nothing unless it is still pending, so a job run twice, or after a delete, is harmless.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { effectsOn } from '../../generated/effects.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { dns } from './dns-port.js';

export const VERIFY_DOMAIN = 'verify_payment_method_domain';

export const txtRecordName = (domain: string): string => `_commerce-pay-verification.${domain}`;

export const verificationJob = (domainId: string) =>
  [VERIFY_DOMAIN, { payment_method_domain_id: domainId }, { jobKey: `${VERIFY_DOMAIN}:${domainId}` }] as const;

/** One check: verified when the published record's value is the token; else pending with the reason. */
export async function verifyPaymentMethodDomain(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const domain = await trx('payment_method_domains').where({ id }).forUpdate().first();
    if (!domain || domain.status !== 'pending') return;
    const records = await dns().txtRecords(trx, domain.txt_record_name);
    if (!records.includes(domain.verification_token)) {
      const error = records.length
        ? `The TXT record ${domain.txt_record_name} does not hold this domain's verification token`
        : `No TXT record ${domain.txt_record_name} was found`;
      await trx('payment_method_domains').where({ id }).update({ verification_error: error, updated_at: nowMs(trx) });
      return;
    }
    await trx('payment_method_domains').where({ id })
      .update({ status: 'verified', verified_at: nowMs(trx), verification_error: null, updated_at: nowMs(trx) });
    const view = await readView(trx, resources.PaymentMethodDomain, id);
    await effectsOn(trx).emit('payment_method_domain.verified', domain.account_id, view);
  });
}

export function paymentMethodDomainTasks(db: Knex): Record<string, Task> {
  return {
    [VERIFY_DOMAIN]: async (payload) =>
      verifyPaymentMethodDomain(db, (payload as { payment_method_domain_id: string }).payment_method_domain_id),
  };
}
