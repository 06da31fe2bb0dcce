// One payment for an operation on /payments/{id}: invisible accounts' payments do not exist for the caller (404),
// visible ones need the scope on their account (403). The buyer's own token is refused, not hidden: the payment
// is theirs, but native payment reads are not served to buyers (403).
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';
import type { PaymentRow } from './payment-view.js';

export async function findPayment(ctx: HandlerContext, id: string, scope: string, options: { lock?: boolean } = {}): Promise<PaymentRow> {
  const query = ctx.db('payments').where({ id }).first();
  const row: PaymentRow | undefined = options.lock ? await query.forUpdate() : await query;
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) {
    if (row && ctx.principal.kind === 'user_token' && row.user_id === ctx.principal.userId) {
      throw forbidden("Native payment reads are not served to the buyer's own token; the selling account's credentials read payments");
    }
    throw notFound('payment', id, 'id');
  }
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
  return row;
}
