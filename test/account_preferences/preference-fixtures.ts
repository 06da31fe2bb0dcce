// Balances and saved cards for the ads payment method and cards preference tests, opened as the product opens them
// (a business or cards balance on first use; a card saved by a setup intent), and the worker's queue.
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { until } from '../helpers/poll.js';
import type { TestApp } from '../helpers/harness.js';
import { newId } from '../../runtime/ids.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { cardsLedgerOf } from '../../handlers/cards/cards-ledger.js';
import { asSeller, clientIdOf, VERSION } from '../payments/payment-fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';

/** The account's business or cards balance, opened as payments and card top-ups open it (handlers/ledger/ledgers.ts,
 * handlers/cards/cards-ledger.ts). A titled business balance, or a personal one on the account, the product never makes. */
export async function makeBalance(db: Knex, input: { accountId: string; kind: 'business' | 'personal' | 'cards'; title?: string | null; userId?: string }) {
  if (input.kind === 'business' && !input.title) return ledgerOf(db, input.accountId);
  if (input.kind === 'cards') return cardsLedgerOf(db, input.accountId);
  const id = newId('ldgr_');
  // sql-state-write: no endpoint names a business balance, and personal wallets are made without an account; the ads choice must still show and accept them
  await db('ledger_accounts').insert({ id, account_id: input.accountId, kind: input.kind, title: input.title ?? null, user_id: input.userId ?? null });
  return id;
}

const NUMBERS: Record<string, string> = { visa: '4242424242424242', mastercard: '5555555555554444' };

/** A card the account saved for itself: a setup intent (no buyer) with a token of its frontend. `last4` other than the
 * brand's test number's is a visa ending in 1881. A bank account the product cannot save (it saves cards only). */
export async function makeCard(app: TestApp, accountId: string, card: { brand?: string; last4?: string; expMonth?: number; expYear?: number; type?: string } = {}) {
  if (card.type && card.type !== 'card') {
    const id = newId('payt_');
    // sql-state-write: setup intents save cards only; a saved non-card method is what the ads choice must refuse
    await app.db('payment_methods').insert({ id, account_id: accountId, type: card.type });
    return id;
  }
  const number = card.last4 === '1881' ? '4012888888881881' : NUMBERS[card.brand ?? 'visa'];
  assert.ok(number && (!card.last4 || number.endsWith(card.last4)), `no test card for ${JSON.stringify(card)}`);
  const token = await app.request('POST', '/confirmation_tokens', {
    token: await clientIdOf(app, accountId), version: VERSION,
    body: { card: { number, exp_month: card.expMonth ?? 12, exp_year: card.expYear ?? 2030, cvc: '123' } },
  });
  assert.is(token.status, 201, JSON.stringify(token.body));
  const intent = await asSeller(app, accountId, 'POST', '/setup_intents', { account_id: accountId, confirmation_token: token.body.id });
  await app.db.transaction((trx) => saveSetupIntent(trx, intent.id));
  const saved = await asSeller(app, accountId, 'GET', `/setup_intents/${intent.id}`);
  assert.is(saved.status, 'succeeded', JSON.stringify(saved));
  return saved.payment_method_id as string;
}

/** Pending graphile-worker jobs of a task (the public jobs view has no payload, so its tables are read). */
export async function jobsFor(db: Knex, task: string) {
  return db('graphile_worker._private_jobs as j').join('graphile_worker._private_tasks as t', 't.id', 'j.task_id')
    .where('t.identifier', task).select('j.id', 'j.key', 'j.payload', 'j.run_at', 'j.locked_at');
}

export async function eventsOf(db: Knex, accountId: string, type: string) {
  return db('events').where({ account_id: accountId, type }).orderBy('created_at');
}

export const waitFor = <T>(probe: () => Promise<T>, timeoutMs = 10_000) =>
  until(probe, 'the worker', { timeoutMs, everyMs: 100 });
