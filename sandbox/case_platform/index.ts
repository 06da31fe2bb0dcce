// The sandbox's platform review of an escalated resolution center case: the merchant wins when one of its messages
// carries the sandbox's winning text (as a dispute's evidence does); otherwise the buyer's bank charges back.
import type { CasePlatform } from '../../handlers/resolution_center_cases/index.js';

export const WINNING = 'winning_evidence';

export const sandboxCasePlatform: CasePlatform = {
  async review({ merchant_messages }) {
    return merchant_messages.some((message) => message.includes(WINNING)) ? 'merchant_won' : 'charge_back';
  },
};
