// What the card-paying areas (payments, refunds, setup intents, memberships, ads, confirmation tokens, disputes) ask
// of a card processor: what a card is, whether its issuer wants 3-D Secure, and its answer to a charge, a saving or
// a refund, with its fees. One port for all of them, here in the shared kernel, so none imports another for it.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

/**
 * What the processor does with a card (its test behaviour, kept on the confirmation token or payment method).
 * succeeds: approved. declined / insufficient_funds: refused with that code. requires_3ds: needs 3-D Secure unless
 * the policy is frictionless_if_required, approved after the step. requires_3ds_challenge: always needs a
 * challenge. refund_fails: approved, but its refunds are refused. The last four are approved, and then the card
 * scheme (handlers/disputes/card-scheme-port.ts) reports on the payment: a chargeback, an early fraud warning, a
 * dispute alert, or a rapid dispute resolution.
 */
export type CardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'requires_3ds' | 'requires_3ds_challenge'
  | 'refund_fails' | 'chargeback' | 'early_fraud_warning' | 'dispute_alert' | 'rapid_dispute_resolution';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay';

export type ThreeDSecurePolicy = 'mandate_challenge' | 'mandate_if_required' | 'frictionless_if_required';

export type ChargeDecision =
  | { approved: true }
  | { approved: false; code: 'card_declined' | 'insufficient_funds' | 'authentication_required'; message: string };

export type SetupDecision =
  | { outcome: 'saved' }
  | { outcome: 'requires_action' }
  | { outcome: 'refused'; code: 'card_declined' | 'insufficient_funds' | 'authentication_required'; message: string };

export type RefundDecision = { approved: true } | { approved: false; reason: 'refund_declined' };

/** The columns of a payment that name its card: a confirmation token, else a saved payment method. */
export interface PaidWith { confirmation_token_id?: string | null; payment_method_id?: string | null; [column: string]: unknown }

export interface CardProcessor {
  luhnValid(number: string): boolean;
  /** the brand from the number's issuer prefix; null when no known range matches */
  cardBrand(number: string): CardBrand | null;
  /** what the processor will do with a card number */
  cardBehaviour(number: string): CardBehaviour;
  /** the same card's fingerprint, whatever token carries it (never the number) */
  cardFingerprint(number: string): string;
  /** the behaviour of the card behind a payment (its confirmation token or saved method) */
  cardBehaviourOf(db: Knex, payment: PaidWith): Promise<CardBehaviour>;
  /** the 3-D Secure policy that applies to a payment of `total` minor units under the configured one */
  effectivePolicy(configured: ThreeDSecurePolicy, total: number): ThreeDSecurePolicy;
  /** whether the issuer (or the policy) needs a 3-D Secure step for this card */
  needsAuthentication(behaviour: CardBehaviour, policy: ThreeDSecurePolicy, buyerPresent: boolean): boolean;
  /** the answer to a charge; `authentication` is the payment's: required but not completed is refused */
  decideCharge(behaviour: CardBehaviour, authentication: string): ChargeDecision;
  /** the answer to saving a card for later (setup intents) */
  decideSetup(behaviour: CardBehaviour): SetupDecision;
  decideRefund(behaviour: CardBehaviour): RefundDecision;
  /** the processor's and the platform's fees on a payment of `total` minor units */
  feesFor(total: number): { processing: number; platform: number };
}

export const cardProcessor = definePort<CardProcessor>('card processor');
