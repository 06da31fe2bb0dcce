// A payment whose dispute was lost or closed has already been returned to the buyer by the network: refunding it
// would pay them twice. A refund rule: handlers/payments/refundPayment.ts and the Resolution Center's refund ask it
// before a refund is created.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';

export async function refuseChargedBack(db: Knex, paymentId: string): Promise<void> {
  const d = await db('disputes').where({ payment_id: paymentId }).whereIn('status', ['lost', 'closed']).first('id', 'status');
  if (d) {
    throw new ApiError(400, 'invalid_state', `This payment was charged back (dispute ${d.id} is ${d.status}); the buyer already has the money`,
      'id', { 'x-should-retry': 'false' });
  }
}
