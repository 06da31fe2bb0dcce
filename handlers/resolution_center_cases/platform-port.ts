// What the resolution center area asks of the platform that reviews an escalated case: its ruling, for the merchant
// or a chargeback. The resolution_case_review job (platform.ts) asks with the case locked and applies the ruling
// itself: the case's move, the dispute, the events.
import { definePort } from '../../runtime/ports.js';

export interface EscalatedCase {
  id: string;
  /** the buyer's complaint */
  reason: string;
  /** what the merchant wrote on the case, oldest first */
  merchant_messages: string[];
}

export type PlatformRuling = 'merchant_won' | 'charge_back';

export interface CasePlatform {
  review(escalated: EscalatedCase): Promise<PlatformRuling>;
}

export const casePlatform = definePort<CasePlatform>('resolution center platform');
