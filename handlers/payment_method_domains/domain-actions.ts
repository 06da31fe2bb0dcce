// The rules of the actions on one payment method domain (plain actions, spec/areas/payment_method_domains.yaml):
// the runtime finds and locks the domain under the owner rules, runs the rule, and answers the domain as it is then.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { dns } from './dns-port.js';
import { verificationJob } from './verification.js';

/** publish_proof (sandbox): the owner's DNS change, in the sandbox's DNS (dns-port.ts), and a check queued; the
 * domain itself stays as it is until the job runs. A verified domain is left alone. */
export const publishProof: ActionHook<'publishPaymentMethodDomainProof'> = async (domain, { body }, ctx) => {
  if (domain.status === 'verified') return;
  await dns().publishTxtRecord(ctx.db, String(domain.txt_record_name), String(body.value ?? domain.verification_token));
  await ctx.addJob(...verificationJob(String(domain.id)));
};
