// Written by hand, not declared plain: a domain taken by a concurrent request must be the 409, which only the insert's on conflict says.
import type { Handler } from '../../generated/handler.js';
import { conflict } from '../../runtime/errors.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { registrableHostname } from './hostname.js';
import { txtRecordName } from './verification.js';

/** POST /payment_method_domains: the runtime has checked payment_method_domain:manage on account_id. */
export const createPaymentMethodDomain: Handler<'createPaymentMethodDomain'> = async ({ body }, ctx) => {
  const domain = registrableHostname(body.domain);
  const [row] = await ctx.db('payment_method_domains').insert({
    id: newId('pmd_'), account_id: body.account_id, domain, status: 'pending',
    txt_record_name: txtRecordName(domain), verification_token: `cpv_${randomToken(32)}`,
  }).onConflict(['account_id', 'domain']).ignore().returning('*');
  if (!row) throw conflict(`This account already registered the domain '${domain}'`, 'domain');
  const view = resources.PaymentMethodDomain.view(row);
  await ctx.emit('payment_method_domain.created', body.account_id, view);
  return view;
};
