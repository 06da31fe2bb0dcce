// What a payment's outcome does beyond the payment: the area that sold what was bought decides (the memberships area,
// handlers/memberships/payment-outcomes.ts, which also charges renewals through this area, so payments cannot import
// it back). Called in the payment's transaction; wiring/compose.ts provides it.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';
import type { PaymentRow } from '../shared/payment-row.js';

export interface Fulfilment {
  memberId: string | null;
  membershipId: string | null;
  /** the membership.activated event's data, recorded after payment.succeeded, when the payment activated one */
  activated: unknown | null;
}

export interface PaymentOutcomes {
  /** A settled payment: what the buyer gets (a membership, a renewal's next period). */
  paid(db: Knex, payment: PaymentRow): Promise<Fulfilment>;
  /** A declined payment (a declined renewal moves its membership to past_due or ends it). */
  declined(db: Knex, payment: PaymentRow): Promise<void>;
  /** The payment's column changes when it is collected again; throws when it can no longer be collected. */
  retryChanges(db: Knex, payment: PaymentRow): Promise<Record<string, unknown>>;
}

export const paymentOutcomes = definePort<PaymentOutcomes>('payment outcomes');
