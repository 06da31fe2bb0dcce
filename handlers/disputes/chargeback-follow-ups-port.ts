// What a chargeback opened by the card scheme ends in the areas above disputes, which open disputes through it and so
// cannot be imported back: the payment's open Resolution Center case, closed because the buyer's bank took the
// complaint over (handlers/resolution_center_cases/case-steps.ts). Called in the dispute's transaction;
// wiring/compose.ts provides the port.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

export interface ChargebackFollowUps {
  chargedBack(db: Knex, paymentId: string, disputeId: string): Promise<void>;
}

export const chargebackFollowUps = definePort<ChargebackFollowUps>('chargeback follow-ups');
