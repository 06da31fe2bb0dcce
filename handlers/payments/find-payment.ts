// One payment for an operation on /payments/{id}: invisible accounts' payments do not exist for the caller (404),
// visible ones need the scope on their account (403). The buyer's own token is refused, not hidden: the payment
// is theirs, but native payment reads are not served to buyers (403).
import { forbidden } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import type { PaymentRow } from './payment-view.js';

export async function findPayment(ctx: HandlerContext, id: string, scope: string, options: { lock?: boolean } = {}): Promise<PaymentRow> {
  const query = ctx.db('payments').where({ id }).first();
  const row: PaymentRow | undefined = options.lock ? await query.forUpdate() : await query;
  return requireOwned(ctx.access, row, [scope], { noun: 'payment', id }, {
    isOwn: (r) => ctx.principal.kind === 'user_token' && r.user_id === ctx.principal.userId,
    own: forbidden("Native payment reads are not served to the buyer's own token; the selling account's credentials read payments"),
  });
}
