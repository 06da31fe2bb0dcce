// The sandbox processor's behaviour for the card behind a payment. Its own module so payments (collection),
// refunds (settle-refund) and disputes (the network) all read it here instead of importing each other (imports point one way: no loop between the three areas).
import type { Knex } from 'knex';
import type { CardBehaviour } from './cards.js';

/** The columns of a payment that name its card: a confirmation token, else a saved payment method. */
export interface PaidWith { confirmation_token_id?: string | null; payment_method_id?: string | null; [column: string]: unknown }

/** The processor's behaviour for the card behind a payment (its confirmation token or saved method). */
export async function cardBehaviourOf(db: Knex, payment: PaidWith): Promise<CardBehaviour> {
  const source = payment.confirmation_token_id
    ? await db('confirmation_tokens').where({ id: payment.confirmation_token_id }).first('test_behaviour')
    : await db('payment_methods').where({ id: payment.payment_method_id }).first('test_behaviour');
  return (source?.test_behaviour ?? 'succeeds') as CardBehaviour;
}
