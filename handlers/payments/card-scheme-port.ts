// What payments tells a card scheme: a payment settled. The scheme may later report on it (a chargeback, an alert,
// a rapid dispute resolution), which the disputes area applies (handlers/disputes/network.ts).
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';
import type { PaidWith } from '../shared/card-processor-port.js';

export interface SettlementScheme {
  /** Called in the settlement's transaction. */
  settled(db: Knex, payment: PaidWith & { id: string }): Promise<void>;
}

export const settlementScheme = definePort<SettlementScheme>('card scheme (settlements)');
