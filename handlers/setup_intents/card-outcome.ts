// The sandbox card's answer to a request to save it, from its test_behaviour (the convention the simulated
// processor shares): saved, refused with a code, or asking the buyer for 3D Secure.
export type CardOutcome =
  | { kind: 'saved' }
  | { kind: 'requires_3ds' }
  | { kind: 'refused'; code: string; message: string };

export function cardOutcome(testBehaviour: string | null): CardOutcome {
  switch (testBehaviour) {
    case 'requires_3ds':
      return { kind: 'requires_3ds' };
    case 'declined':
      return { kind: 'refused', code: 'card_declined', message: 'The card was declined by its issuer.' };
    case 'insufficient_funds':
      return { kind: 'refused', code: 'insufficient_funds', message: 'The card has insufficient funds.' };
    default:
      return { kind: 'saved' };
  }
}

/** Where a buyer completes 3D Secure in the sandbox. */
export const threeDSecureUrl = (setupIntentId: string) => `https://sandbox.commerce.example/3ds/setup_intents/${setupIntentId}`;
