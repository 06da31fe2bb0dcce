import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { verificationJob } from './verification.js';

/** POST /sandbox/payment_method_domains/{id}/publish_proof: the owner's DNS change, in the sandbox's DNS, and a check. */
export const publishPaymentMethodDomainProof: Handler<'publishPaymentMethodDomainProof'> = async ({ path, body }, ctx) => {
  const domain = await loadOwned(ctx, resources.PaymentMethodDomain, path.id, ['payment_method_domain:manage'], { forUpdate: true });
  if (domain.status === 'verified') return resources.PaymentMethodDomain.view(domain);
  await ctx.db('sandbox_dns_txt_records')
    .insert({ name: domain.txt_record_name, value: body.value ?? domain.verification_token })
    .onConflict(['name', 'value']).merge({ updated_at: nowMs(ctx.db) });
  await ctx.addJob(...verificationJob(String(domain.id)));
  return resources.PaymentMethodDomain.view(domain);
};
