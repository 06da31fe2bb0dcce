// The sandbox network's OAuth-style consent (docs/sandbox/social-network.md):
// POST /external_accounts/connect stores a pending connection behind a single-use state token; the owner's answer on
// the authorize page (sandbox/pages/oauth-page.ts) settles it once, in one transaction with the external accounts
// it creates. A state that is unknown, used or expired creates nothing.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';
import { effectsOn, type Effects } from '../../generated/effects.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { hashSecret } from '../../runtime/credentials.js';
import { publicBaseUrl } from '../shared/public-url.js';
import { nowMs } from '../shared/now.js';
import { insertExternalAccount } from './insert-external-account.js';
import type { Tables } from '../../generated/rows.js';

export const AUTHORIZE_PATH = '/sandbox/oauth/authorize';
export const CONNECT_LINK_MINUTES = 30;
const STATE = /^[A-Za-z0-9]{40}$/;
export const HANDLE = /^@?[A-Za-z0-9_.]{1,30}$/;

export interface ConnectRequest { account_id: string; platform: 'meta_business' | 'tiktok'; scopes: string[]; redirect_url: string | null }

export async function newConnection(db: Knex, r: ConnectRequest): Promise<{ authorize_url: string; expires_at: string }> {
  const state = randomToken(40);
  const [row] = await db('external_account_connections').insert({
    id: newId('xconn_'), account_id: r.account_id, platform: r.platform, scopes: [...new Set(r.scopes)],
    redirect_url: r.redirect_url, state: hashSecret(state), status: 'pending', // shown once, in authorize_url
    expires_at: db.raw(`date_trunc('milliseconds', now()) + make_interval(mins => ?)`, [CONNECT_LINK_MINUTES]),
  }).returning('expires_at');
  return { authorize_url: `${publicBaseUrl()}${AUTHORIZE_PATH}?state=${state}`, expires_at: new Date(row.expires_at).toISOString() };
}

/** The pending connection a state names (expired or not), or undefined. */
export async function pendingConnection(db: Knex, state: string, forUpdate = false)
  : Promise<(Tables['external_account_connections'] & { expired: boolean }) | undefined> {
  if (!STATE.test(state)) return undefined;
  const q = db('external_account_connections').where({ state: hashSecret(state), status: 'pending' })
    .first('*', db.raw('expires_at <= now() as expired'));
  return forUpdate ? q.forUpdate() : q;
}

export type Answer = { decision: 'deny' } | { decision: 'allow'; username: string; instagram_username: string | null };

export interface Outcome {
  redirect_url: string | null;
  /** the external account to name: the page's for meta_business */
  external_account_id: string | null;
  error: 'access_denied' | 'expired' | 'already_connected' | null;
}

const PLATFORM = { meta_business: 'facebook', tiktok: 'tiktok' } as const;

/** Settles a pending connection with the owner's answer; undefined when the state names none. */
export async function answerConnection(fx: Effects, state: string, answer: Answer): Promise<Outcome | undefined> {
  const c = await pendingConnection(fx.db, state, true);
  if (!c) return undefined;
  const settle = async (status: string, error: Outcome['error'], ids: string[] = []): Promise<Outcome> => {
    await fx.db('external_account_connections').where({ id: c.id }).update({
      status, error, external_account_ids: ids, completed_at: nowMs(fx.db), updated_at: nowMs(fx.db),
    });
    return { redirect_url: c.redirect_url, external_account_id: ids[0] ?? null, error };
  };
  if (c.expired) return settle('expired', 'expired');
  if (answer.decision === 'deny') return settle('denied', 'access_denied');
  try {
    // A savepoint: a handle already connected leaves neither the page nor its profile behind.
    const ids = await fx.db.transaction(async (sp) => {
      const spFx = effectsOn(sp);
      const base = { account_id: c.account_id, scopes: c.scopes as string[] };
      const page = await insertExternalAccount(spFx, { ...base, platform: PLATFORM[c.platform as keyof typeof PLATFORM], username: answer.username, parent_external_account_id: null });
      if (!answer.instagram_username) return [page];
      return [page, await insertExternalAccount(spFx, { ...base, platform: 'instagram', username: answer.instagram_username, parent_external_account_id: page })];
    });
    return settle('completed', null, ids);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return settle('failed', 'already_connected');
    throw e;
  }
}
