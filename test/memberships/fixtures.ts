// Catalogue rows, confirmation tokens, saved methods and memberships for the membership, member and setup intent
// tests. Products, plans, tokens and methods are inserted directly (their own areas are built in parallel);
// memberships go through createMembership, the service payments use.
import type { Knex } from 'knex';
import { until } from '../helpers/poll.js';
import { newId } from '../../runtime/ids.js';
import { createMembership } from '../../handlers/memberships/membership-service.js';
import { shownLicenseKey } from '../../handlers/memberships/license-key.js';

export type Behaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'requires_3ds';

export async function makeProduct(db: Knex, accountId: string, options: { includesLicense?: boolean } = {}) {
  const id = newId('prod_');
  await db('products').insert({ id, account_id: accountId, title: 'Course', includes_license: options.includesLicense ?? false });
  return id;
}

export async function makePlan(db: Knex, accountId: string, productId: string) {
  const id = newId('plan_');
  await db('plans').insert({ id, account_id: accountId, product_id: productId, plan_type: 'renewal', billing_period_days: 30, renewal_price: 1000 });
  return id;
}

const DAY = 86_400_000;

/** A trialing or active membership of the user to a new product of the account. Other states are reached by time:
 * test/memberships/lifecycle-fixtures.ts membershipIn. */
export async function makeMembership(db: Knex, accountId: string, userId: string, options: {
  status?: 'trialing' | 'active'; includesLicense?: boolean; periodEnd?: Date | null; productId?: string; planId?: string;
} = {}) {
  const productId = options.productId ?? await makeProduct(db, accountId, { includesLicense: options.includesLicense });
  const planId = options.planId ?? await makePlan(db, accountId, productId);
  const row = await createMembership(db, {
    accountId, userId, productId, planId, status: options.status === 'trialing' ? 'trialing' : 'active',
    currentPeriodEnd: options.periodEnd === undefined ? new Date(Date.now() + 30 * DAY) : options.periodEnd,
  });
  return { id: row.id as string, productId, planId, memberId: row.member_id as string, licenseKey: shownLicenseKey(row) };
}

export async function makeConfirmationToken(db: Knex, accountId: string, behaviour: Behaviour = 'succeeds',
  options: { used?: boolean; expired?: boolean } = {}) {
  const id = newId('ctok_');
  await db('confirmation_tokens').insert({
    id, account_id: accountId, card_brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: `fp_${id}`,
    test_behaviour: behaviour,
    used_at: options.used ? new Date() : null,
    expires_at: new Date(Date.now() + (options.expired ? -1 : 1) * 3_600_000),
  });
  return id;
}

export async function makePaymentMethod(db: Knex, accountId: string, options: { memberId?: string; userId?: string; behaviour?: Behaviour } = {}) {
  const id = newId('payt_');
  await db('payment_methods').insert({
    id, account_id: accountId, user_id: options.userId ?? null, member_id: options.memberId ?? null, type: 'card',
    card_brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2031, test_behaviour: options.behaviour ?? 'succeeds',
  });
  return id;
}

/** Polls until `check` returns something, for work done by the worker. */
export const waitFor = <T>(check: () => Promise<T>, timeoutMs = 10_000) =>
  until(check, 'background work', { timeoutMs, everyMs: 50 });

export const eventsOf = (db: Knex, type: string) => db('events').where({ type }).orderBy('created_at', 'asc');
