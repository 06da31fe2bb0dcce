import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { dns } from './dns-port.js';
import { verificationJob } from './verification.js';

/** POST /sandbox/payment_method_domains/{id}/publish_proof: the owner's DNS change, in the sandbox's DNS
 * (dns-port.ts), and a check. */
export const publishPaymentMethodDomainProof: Handler<'publishPaymentMethodDomainProof'> = async ({ path, body }, ctx) => {
  const domain = await loadOwned(ctx, resources.PaymentMethodDomain, path.id, ['payment_method_domain:manage'], { forUpdate: true });
  if (domain.status === 'verified') return resources.PaymentMethodDomain.view(domain);
  await dns().publishTxtRecord(ctx.db, String(domain.txt_record_name), String(body.value ?? domain.verification_token));
  await ctx.addJob(...verificationJob(String(domain.id)));
  return resources.PaymentMethodDomain.view(domain);
};
