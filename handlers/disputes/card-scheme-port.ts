// What disputes asks of the card scheme: to rule on filed evidence. The scheme rules later, through
// network.ts (takeRuling), where this area closes the dispute and moves its money.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

export interface DisputeScheme {
  /** Called in the transaction that files the evidence. */
  evidenceSubmitted(db: Knex, disputeId: string): Promise<void>;
}

export const disputeScheme = definePort<DisputeScheme>('card scheme (disputes)');
