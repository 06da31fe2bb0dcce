// Catalogue rows, confirmation tokens, saved methods and memberships for the membership, member and setup intent
// tests. Products, plans, tokens and methods are made through the API (test/payments/payment-fixtures.ts);
// memberships go through createMembership, the service payments use.
import type { Knex } from 'knex';
import { until } from '../helpers/poll.js';
import type { TestApp } from '../helpers/harness.js';
import { createMembership } from '../../handlers/memberships/membership-service.js';
import { shownLicenseKey } from '../../handlers/memberships/license-key.js';
import { asSeller, CARD_FOR, clientIdOf, makeToken, saveCardFor } from '../payments/payment-fixtures.js';
import { makeUser } from '../helpers/fixtures.js';

export type Behaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'requires_3ds';

export async function makeProduct(app: TestApp, accountId: string, options: { includesLicense?: boolean } = {}) {
  const product = await asSeller(app, accountId, 'POST', '/products', {
    account_id: accountId, title: 'Course', includes_license: options.includesLicense ?? false,
  });
  return product.id as string;
}

export async function makePlan(app: TestApp, accountId: string, productId: string) {
  const plan = await asSeller(app, accountId, 'POST', '/variants', {
    account_id: accountId, product_id: productId, plan_type: 'renewal', billing_period: 30, renewal_price: 1000,
  });
  return plan.id as string;
}

const DAY = 86_400_000;

/** A trialing or active membership of the user to a new product of the account. Other states are reached by time:
 * test/memberships/lifecycle-fixtures.ts membershipIn. */
export async function makeMembership(app: TestApp, accountId: string, userId: string, options: {
  status?: 'trialing' | 'active'; includesLicense?: boolean; periodEnd?: Date | null; productId?: string; planId?: string;
} = {}) {
  const productId = options.productId ?? await makeProduct(app, accountId, { includesLicense: options.includesLicense });
  const planId = options.planId ?? await makePlan(app, accountId, productId);
  const row = await createMembership(app.db, {
    accountId, userId, productId, planId, status: options.status === 'trialing' ? 'trialing' : 'active',
    currentPeriodEnd: options.periodEnd === undefined ? new Date(Date.now() + 30 * DAY) : options.periodEnd,
  });
  return { id: row.id as string, productId, planId, memberId: row.member_id as string, licenseKey: shownLicenseKey(row) };
}

/** A confirmation token of the account's frontend (POST /confirmation_tokens with its client id) for a sandbox card
 * with the behaviour; `used`: spent on a setup intent for a new buyer, as any first use spends it. Expired tokens are
 * reached by time (test/setup_intents/create-setup-intent.test.ts). */
export async function makeConfirmationToken(app: TestApp, accountId: string, behaviour: Behaviour = 'succeeds',
  options: { used?: boolean } = {}) {
  const id = await makeToken(app, await clientIdOf(app, accountId), CARD_FOR[behaviour]);
  if (options.used) {
    const buyer = await makeUser(app.db);
    await asSeller(app, accountId, 'POST', '/setup_intents', { account_id: accountId, confirmation_token: id, user_id: buyer.id });
  }
  return id;
}

/** A card saved (a setup intent) for the member, or the user (who joins as a member), or no buyer yet (a method
 * without a member, which a later intent naming a member gives one). */
export async function makePaymentMethod(app: TestApp, accountId: string, options: { memberId?: string; userId?: string; behaviour?: Behaviour } = {}) {
  const buyer = options.memberId ? { memberId: options.memberId } : options.userId ? { userId: options.userId } : {};
  return (await saveCardFor(app, accountId, buyer, options.behaviour ?? 'succeeds')).methodId;
}

/** Polls until `check` returns something, for work done by the worker. */
export const waitFor = <T>(check: () => Promise<T>, timeoutMs = 10_000) =>
  until(check, 'background work', { timeoutMs, everyMs: 50 });

export const eventsOf = (db: Knex, type: string) => db('events').where({ type }).orderBy('created_at', 'asc');
