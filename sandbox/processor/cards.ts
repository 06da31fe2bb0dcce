// The sandbox processor's test cards. Stripe-like numbers decide what the simulated processor does with a card;
// only the behaviour, brand, last4, expiry and a fingerprint are ever kept (never the number or the CVC).
import { createHash } from 'node:crypto';
import type { CardBehaviour, CardBrand } from '../../handlers/shared/card-processor-port.js';

const TEST_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'requires_3ds',
  '4000000000003220': 'requires_3ds_challenge',
  '4000000000005126': 'refund_fails',
  '4000000000000259': 'chargeback',
  '4000000000005423': 'early_fraud_warning',
  '4000000000001976': 'dispute_alert',
  '4000000000006975': 'rapid_dispute_resolution',
};

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand from the number's issuer prefix (IIN ranges); null when no known range matches. */
export function cardBrand(number: string): CardBrand | null {
  const p2 = Number(number.slice(0, 2));
  const p4 = Number(number.slice(0, 4));
  if (/^3[47]/.test(number)) return 'amex';
  if (/^3(0[0-5]|[68])/.test(number)) return 'diners';
  if (p4 >= 3528 && p4 <= 3589) return 'jcb';
  if (/^(6011|64[4-9]|65)/.test(number)) return 'discover';
  if (/^62/.test(number)) return 'unionpay';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
  if (number.startsWith('4')) return 'visa';
  return null;
}

export const cardBehaviour = (number: string): CardBehaviour => TEST_CARDS[number] ?? 'succeeds';

export const cardFingerprint = (number: string) => createHash('sha256').update(number).digest('hex');
