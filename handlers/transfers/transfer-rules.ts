// The rules of a transfer request that need no database: which fields go with which type, the sandbox's fee, and
// what the origin's balance must cover.
import type { Operations } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { clockNow } from '../../runtime/clock.js';

type Body = Operations['createTransfer']['input']['body'];

const DAY_MS = 86_400_000;
export const DEFAULT_CLAIM_LINK_DAYS = 30;
export const MAX_CLAIM_LINK_DAYS = 365;

/** The sandbox's transfer fee: 1% of the amount, rounded half up to the minor unit (integer arithmetic). */
export const transferFee = (amount: number): number => Number((BigInt(amount) + 50n) / 100n);

/** What the origin's available balance gives up: every share of the amount, each with its fee. */
export const totalDebit = (amount: number, shares: number): number => Number(BigInt(shares) * (BigInt(amount) + BigInt(transferFee(amount))));

/** The fields that go with each type; a 400 naming the first that does not. */
export function checkShape(body: Body): void {
  if (body.destination_id === body.origin_id) throw invalid('destination_id must differ from origin_id', 'destination_id');
  if (body.type === 'balance') {
    if (body.destination_id === undefined) throw invalid('A balance transfer needs destination_id', 'destination_id');
    if (body.expires_at !== undefined) throw invalid('expires_at is for claim links only', 'expires_at');
    if (body.redeemable_count !== undefined) throw invalid('redeemable_count is for claim links only', 'redeemable_count');
    return;
  }
  if (body.destination_id !== undefined && !body.destination_id.startsWith('user_')) {
    throw invalid('A claim link invites a user: destination_id must be a user id (user_)', 'destination_id');
  }
  if (body.destination_id !== undefined && (body.redeemable_count ?? 1) !== 1) {
    throw invalid('An invite is claimed once: redeemable_count must be 1 with destination_id', 'redeemable_count');
  }
}

/** A claim link's expiry: expires_at, else 30 days on; in the future and at most 365 days ahead. */
export function claimLinkExpiry(expiresAt: string | undefined, now = clockNow().getTime()): Date {
  const at = expiresAt === undefined ? now + DEFAULT_CLAIM_LINK_DAYS * DAY_MS : Date.parse(expiresAt);
  if (at <= now) throw invalid('expires_at must be in the future', 'expires_at');
  if (at > now + MAX_CLAIM_LINK_DAYS * DAY_MS) throw invalid(`expires_at must be at most ${MAX_CLAIM_LINK_DAYS} days ahead`, 'expires_at');
  return new Date(at);
}
