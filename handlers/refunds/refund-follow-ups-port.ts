// What a settled refund ends in the areas above this one, which refund through it and so cannot be imported back:
// the payment's chargebacks it prevents (handlers/disputes/prevent-by-refund.ts) and, when the payment is refunded in
// full, its open Resolution Center case (handlers/resolution_center_cases/case-steps.ts). Called in the refund's
// transaction, the payment locked; wiring/compose.ts provides the port.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';
import type { Entry } from '../ledger/index.js';
import type { PaymentRow } from '../shared/payment-row.js';

export interface RefundFollowUps {
  /** Prevents the payment's actionable alerts and disputes before any ruling; the entries returning the disputes'
   * amounts, for the refund to post with its own in one statement (so their balance rows lock in one order). */
  preventChargebacks(db: Knex, payment: PaymentRow): Promise<Entry[]>;
  refundedInFull(db: Knex, paymentId: string, refundId: string): Promise<void>;
}

export const refundFollowUps = definePort<RefundFollowUps>('refund follow-ups');
