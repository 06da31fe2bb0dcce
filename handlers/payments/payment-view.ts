// The Payment resource is declared (spec/areas/payments.yaml table:): one statement reads a payment with its buyer,
// and the generated view renders it. These name it for the payment handlers.
import type { Knex } from 'knex';
import type { Payment } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import type { PaymentRow } from '../shared/payment-row.js';

export type { PaymentRow };

/** A payment as it is now (after a write), read with its buyer in one statement. */
export const loadPaymentView = (db: Knex, id: string): Promise<Payment> => readView(db, resources.Payment, id);

/** A row of the payment's own table with its buyer at hand (an insert's `returning *`): no second read. */
export function paymentView(row: PaymentRow, buyer: { username: string; name: string | null; profile_picture_url: string | null }): Payment {
  return resources.Payment.view({
    ...row, 'user.id': row.user_id, 'user.username': buyer.username, 'user.name': buyer.name, 'user.profile_picture': buyer.profile_picture_url,
  });
}
