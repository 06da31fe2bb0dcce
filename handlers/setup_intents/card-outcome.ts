// The card's answer to a request to save it, as the card processor (handlers/shared/card-processor-port.ts) decides
// it from the card's test_behaviour: saved, refused with a code, or asking the buyer for 3D Secure.
import { cardProcessor, type CardBehaviour } from '../shared/card-processor-port.js';
export type CardOutcome =
  | { kind: 'saved' }
  | { kind: 'requires_3ds' }
  | { kind: 'refused'; code: string; message: string };

export function cardOutcome(testBehaviour: string | null): CardOutcome {
  const decision = cardProcessor().decideSetup((testBehaviour ?? 'succeeds') as CardBehaviour);
  if (decision.outcome === 'requires_action') return { kind: 'requires_3ds' };
  if (decision.outcome === 'refused') return { kind: 'refused', code: decision.code, message: decision.message };
  return { kind: 'saved' };
}


/** last_setup_error when the buyer fails (or abandons) 3D Secure at the next_action redirect. */
export const AUTHENTICATION_FAILED = { code: 'authentication_failed', message: 'The buyer did not complete 3D Secure authentication' } as const;
