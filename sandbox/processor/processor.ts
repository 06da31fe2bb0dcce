// The simulated processor behind the sandbox. Its decisions depend only on the card's behaviour (cards.ts), the
// payment's 3-D Secure policy and whether the buyer is present; its state is the payment's own row (authentication,
// status), so a retried collection asks the same questions and gets the same answers.
import type {
  CardBehaviour, ChargeDecision, RefundDecision, SetupDecision, ThreeDSecurePolicy,
} from '../../handlers/shared/card-processor-port.js';

/** Payments of 1,000 or more minor units use at least mandate_if_required (the seed's 3-D Secure floor). */
export const THREE_D_SECURE_FLOOR = 1000;

export function effectivePolicy(configured: ThreeDSecurePolicy, total: number): ThreeDSecurePolicy {
  if (configured === 'frictionless_if_required' && total >= THREE_D_SECURE_FLOOR) return 'mandate_if_required';
  return configured;
}

/** Whether the issuer (or the policy) needs a 3-D Secure step for this card. */
export function needsAuthentication(behaviour: CardBehaviour, policy: ThreeDSecurePolicy, buyerPresent: boolean): boolean {
  if (behaviour === 'requires_3ds_challenge') return true;
  if (behaviour === 'requires_3ds') return policy !== 'frictionless_if_required';
  // A mandatory challenge is only possible with the buyer there to answer it; without them the charge proceeds.
  return policy === 'mandate_challenge' && buyerPresent;
}

/** The processor's answer to a charge; `authentication` is the payment's: required but not completed is refused. */
export function decideCharge(behaviour: CardBehaviour, authentication: string): ChargeDecision {
  if (authentication === 'required') {
    return { approved: false, code: 'authentication_required', message: 'The card issuer requires 3-D Secure authentication, which needs the buyer present' };
  }
  if (behaviour === 'declined') return { approved: false, code: 'card_declined', message: 'The card was declined' };
  if (behaviour === 'insufficient_funds') return { approved: false, code: 'insufficient_funds', message: 'The card has insufficient funds' };
  return { approved: true };
}

/** Saving a card for later (setup intents): the issuer may ask the buyer for 3-D Secure; a card a charge would
 * decline is refused the same way. */
export function decideSetup(behaviour: CardBehaviour): SetupDecision {
  if (behaviour === 'requires_3ds' || behaviour === 'requires_3ds_challenge') return { outcome: 'requires_action' };
  const charge = decideCharge(behaviour, 'not_required');
  return charge.approved ? { outcome: 'saved' } : { outcome: 'refused', code: charge.code, message: charge.message };
}

export const decideRefund = (behaviour: CardBehaviour): RefundDecision =>
  behaviour === 'refund_fails' ? { approved: false, reason: 'refund_declined' } : { approved: true };

/** Sandbox fees: the processor's 2.9% + 30 minor units and the platform's 1%, each rounded half up. */
export function feesFor(total: number): { processing: number; platform: number } {
  const pct = (basisPoints: number) => Number((BigInt(total) * BigInt(basisPoints) + 5000n) / 10000n);
  return { processing: pct(290) + 30, platform: pct(100) };
}
