// Rows that other areas will create through their own endpoints (balances, saved cards) and the worker's queue.
import type { Knex } from 'knex';
import { until } from '../helpers/poll.js';
import { newId } from '../../runtime/ids.js';

export async function makeBalance(db: Knex, input: { accountId: string; kind: 'business' | 'personal' | 'cards'; title?: string | null; userId?: string }) {
  const id = newId('ldgr_');
  await db('ledger_accounts').insert({ id, account_id: input.accountId, kind: input.kind, title: input.title ?? null, user_id: input.userId ?? null });
  return id;
}

export async function makeCard(db: Knex, accountId: string, card: { brand?: string; last4?: string; expMonth?: number; expYear?: number; type?: string } = {}) {
  const id = newId('payt_');
  await db('payment_methods').insert({
    id, account_id: accountId, type: card.type ?? 'card', card_brand: card.brand ?? 'visa', last4: card.last4 ?? '4242',
    exp_month: card.expMonth ?? 12, exp_year: card.expYear ?? 2030,
  });
  return id;
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
