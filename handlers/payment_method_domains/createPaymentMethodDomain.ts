import type { CreateHook } from '../../generated/plain-hooks.js';
import { randomToken } from '../../runtime/ids.js';
import { registrableHostname } from './hostname.js';
import { txtRecordName } from './verification.js';

/** POST /payment_method_domains (plain create; the runtime has checked payment_method_domain:manage on account_id):
 * the hostname is checked and lower-cased, and starts pending with the TXT record that proves it; a hostname the
 * account registered is the declared 409. */
export const createPaymentMethodDomain: CreateHook<'createPaymentMethodDomain'> = ({ domain: sent }) => {
  const domain = registrableHostname(sent);
  return { domain, status: 'pending', txt_record_name: txtRecordName(domain), verification_token: `cpv_${randomToken(32)}` };
};
