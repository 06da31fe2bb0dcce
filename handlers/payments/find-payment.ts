// One payment for an operation on /payments/{id}, read with its buyer in one statement (the declared Payment):
// invisible accounts' payments do not exist for the caller (404), visible ones need the scope on their account
// (403). The buyer's own token is refused, not hidden: the payment is theirs, but native payment reads are not
// served to buyers (403).
import { forbidden } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned, type OwnRows } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import type { RowRead } from '../../runtime/plain/stored-resource.js';
import type { PaymentRow as PaymentWithBuyer } from '../../generated/rows.js';

const buyersOwn = <R extends { user_id: string | null }>(ctx: HandlerContext): OwnRows<R> => ({
  isOwn: (r) => ctx.principal.kind === 'user_token' && r.user_id === ctx.principal.userId,
  own: () => forbidden("Native payment reads are not served to the buyer's own token; the selling account's credentials read payments"),
});

/** The payment's row as its statement reads it: its table's columns and its buyer's (`user.*`); with `read: 'view'`
 * (a caller that only renders it, resources.Payment.view), what the view reads. */
export async function findPayment(ctx: HandlerContext, id: string, scope: string, read: RowRead = 'row'): Promise<PaymentWithBuyer> {
  return loadOwned(ctx, resources.Payment, id, [scope], { read, ownRows: buyersOwn(ctx) });
}
