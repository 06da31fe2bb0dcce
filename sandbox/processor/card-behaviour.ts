// The sandbox processor's behaviour for the card behind a payment: the test behaviour its confirmation token or
// saved payment method kept (cards.ts). The card scheme (sandbox/card_scheme/) reads it here too.
import type { Knex } from 'knex';
import type { CardBehaviour, PaidWith } from '../../handlers/shared/card-processor-port.js';

/** The processor's behaviour for the card behind a payment (its confirmation token or saved method). */
export async function cardBehaviourOf(db: Knex, payment: PaidWith): Promise<CardBehaviour> {
  const source = payment.confirmation_token_id
    ? await db('confirmation_tokens').where({ id: payment.confirmation_token_id }).first('test_behaviour')
    : await db('payment_methods').where({ id: payment.payment_method_id }).first('test_behaviour');
  return (source?.test_behaviour ?? 'succeeds') as CardBehaviour;
}
