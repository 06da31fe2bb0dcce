// The Payment resource is declared (spec/areas/payments.yaml table:): one statement reads a payment with its buyer,
// and the generated view renders it. These name it for the payment handlers.
import type { Knex } from 'knex';
import type { Payment } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import type { PaymentRow } from '../shared/payment-row.js';
import type { PaymentRow as PaymentWithBuyer } from '../../generated/rows.js';

export type { PaymentRow };

/** A payment as it is now (after a write), read with its buyer in one statement. */
export const loadPaymentView = (db: Knex, id: string): Promise<Payment> => readView(db, resources.Payment, id);

/** A row of the payment's own table with its buyer at hand (an insert's `returning *`): no second read. The row is
 * given its buyer's columns as the view reads them, in place: a copy of its ~50 columns cost more than the view. */
export function paymentView(row: PaymentRow, buyer: { username: string; name: string | null; profile_picture_url: string | null }): Payment {
  const withBuyer = row as PaymentWithBuyer;
  withBuyer['user.id'] = row.user_id;
  withBuyer['user.username'] = buyer.username;
  withBuyer['user.name'] = buyer.name;
  withBuyer['user.profile_picture'] = buyer.profile_picture_url;
  return resources.Payment.view(withBuyer);
}
