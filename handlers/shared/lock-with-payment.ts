// The one lock order where money and a payment meet: the payment first, then a row hanging off it (a dispute, an
// alert, a Resolution Center case), then balances (by posting). Refund settlement holds the payment when it posts
// and then prevents the payment's alerts and disputes; a step that took the child row first and then posted would
// deadlock with it. Every area that changes such a row takes it here, so it lives in the areas' kernel.
import type { Knex } from 'knex';
import type { PaymentRow } from './payment-row.js';

/** The row of `table` with id `id` and its payment, locked payment first; undefined when the row does not exist.
 * `readLocked` reads the row once the payment is locked (by default the bare row, locked). */
export async function lockWithPayment<R = any>(db: Knex, table: string, id: string,
  readLocked: (db: Knex) => Promise<R> = (trx) => trx(table).where({ id }).forUpdate().first()): Promise<{ row: R; payment: PaymentRow } | undefined> {
  const ref = await db(table).where({ id }).first('payment_id');
  if (!ref) return undefined;
  const payment: PaymentRow = await db('payments').where({ id: ref.payment_id }).forUpdate().first();
  return { row: await readLocked(db), payment };
}
