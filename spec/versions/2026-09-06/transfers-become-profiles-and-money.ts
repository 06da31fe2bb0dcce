// Before 2026-09-06 (entry 3) a transfer showed decimal-number amount and fee_amount in the major unit beside its
// currency, and its sides as Company or User objects; a claim link was a different object (object claim_link, a
// decimal-string amount, claim_url, expires_at, redeemable_count, source, status), as the official client shows.
import { decimalAmount, decimalText } from '../../../runtime/decimal-money.js';

interface Party { id: string; name: string | null; logo_url: string | null; route: string | null; username: string | null }

const legacyParty = (p: Party | null) => {
  if (!p) return null;
  return p.id.startsWith('user_')
    ? { id: p.id, typename: 'User', name: p.name, username: p.username }
    : { id: p.id, typename: 'Company', route: p.route, title: p.name };
};

export function down(t: any): any {
  if (t.type === 'claim_link') {
    return {
      id: t.id,
      object: 'claim_link',
      amount: decimalText(t.amount),
      currency: t.amount.currency,
      claim_url: t.claim_url,
      expires_at: t.expires_at,
      redeemable_count: t.redeemable_count,
      source: legacyParty(t.origin),
      status: t.status,
    };
  }
  return {
    id: t.id,
    amount: decimalAmount(t.amount),
    currency: t.amount.currency,
    fee_amount: decimalAmount(t.fee),
    origin: legacyParty(t.origin),
    origin_ledger_account_id: t.origin_ledger_account_id,
    destination: legacyParty(t.destination),
    destination_ledger_account_id: t.destination_ledger_account_id,
    notes: t.notes,
    metadata: t.metadata,
    created_at: t.created_at,
  };
}
