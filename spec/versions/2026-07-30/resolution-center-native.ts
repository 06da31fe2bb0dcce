// Before 2026-07-30 (entry 50) a case had the shape the official client shows: company, issue, the client's
// statuses (side and result in one word, legacy-status.ts), per-side response actions and due_date.
import { legacyStatusOf } from '../../../handlers/resolution_center_cases/legacy-status.js';

/** The merchant's moves in the client's words: refunding is accepting the complaint, closing it is denying it. */
const MERCHANT_WORD: Record<string, string> = { respond: 'respond', refund: 'accept', close: 'deny' };

/** A timeline step's action in the client's words (its ResolutionEvent action). */
const EVENT_WORD: Record<string, string> = {
  opened: 'created', responded: 'responded', replied: 'responded', refunded: 'accepted', closed: 'denied',
  withdrawn: 'withdrew', escalated: 'escalated', ruled_for_merchant: 'dispute_merchant_won', charged_back: 'dispute_opened',
};

/** The embedded timeline (filled by the runtime for these versions: field_hidden) in the client's shape. */
const resolutionEvents = (events: any[] | undefined) => events?.map((e) => ({
  id: e.id, action: EVENT_WORD[e.action], created_at: e.created_at, details: e.message, reporter_type: e.actor,
}));

export function down(c: any): any {
  const open = c.status !== 'closed';
  return {
    id: c.id,
    company: { id: c.account_id },
    user: c.buyer ? { id: c.buyer.id, name: c.buyer.name, username: c.buyer.username } : null,
    member: c.member_id ? { id: c.member_id } : null,
    payment: { id: c.payment_id },
    issue: c.reason,
    status: legacyStatusOf(c.status, c.outcome),
    due_date: c.response_due_at,
    merchant_response_actions: c.available_actions.map((a: string) => MERCHANT_WORD[a]).filter(Boolean),
    customer_response_actions: !open ? [] : c.status === 'awaiting_platform' ? ['withdraw'] : ['respond', 'withdraw'],
    platform_response_actions: c.status === 'awaiting_platform' ? ['merchant_wins', 'merchant_refund'] : [],
    customer_appealed: false,
    merchant_appealed: false,
    resolution_events: resolutionEvents(c.resolution_events),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}
