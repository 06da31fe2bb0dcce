// The sandbox card processor, served through the card-paying areas' port (handlers/shared/card-processor-port.ts):
// test card numbers (cards.ts) decide what it does (processor.ts).
import type { CardProcessor } from '../../handlers/shared/card-processor-port.js';
import { cardBehaviour, cardBrand, cardFingerprint, luhnValid } from './cards.js';
import { cardBehaviourOf } from './card-behaviour.js';
import { decideCharge, decideRefund, decideSetup, effectivePolicy, feesFor, needsAuthentication } from './processor.js';

export { cardBehaviourOf } from './card-behaviour.js';
export { effectivePolicy, needsAuthentication } from './processor.js';

export const sandboxProcessor: CardProcessor = {
  luhnValid, cardBrand, cardBehaviour, cardFingerprint, cardBehaviourOf,
  effectivePolicy, needsAuthentication, decideCharge, decideSetup, decideRefund, feesFor,
};
