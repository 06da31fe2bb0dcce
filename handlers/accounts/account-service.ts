// Creating accounts: id, unique route slug and client id. Used by POST /accounts, the CLI and the demo seed.
import type { Knex } from 'knex';
import { referAccount } from '../partners/index.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { conflict } from '../../runtime/errors.js';
import { nowMs } from '../shared/now.js';
import type { Tables } from '../../generated/rows.js';

export interface NewAccount {
  title: string;
  email?: string | null;
  country?: string | null;
  parentId?: string | null;
  ownerUserId?: string | null;
  metadata?: Record<string, unknown>;
  sendCustomerEmails?: boolean;
  affiliateCode?: string | null;
  blueprintId?: string | null;
}

/** The unique index behind "one connected account per external id and parent" (migrations/001). */
export const EXTERNAL_ID_CONSTRAINT = 'accounts_parent_id_external_id_unique';

function slug(title: string): string {
  const base = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return base || 'account';
}

/** metadata.external_id is what a platform uses to find its connected account again; only strings count. */
export function externalIdOf(metadata: Record<string, unknown>): string | null {
  return typeof metadata.external_id === 'string' && metadata.external_id !== '' ? metadata.external_id : null;
}

export function isUniqueViolation(e: unknown, constraint: string): boolean {
  const err = e as { code?: string; constraint?: string };
  return err?.code === '23505' && err.constraint === constraint;
}

export const duplicateExternalId = (externalId: string, existingId?: string) =>
  conflict(`A connected account with metadata.external_id '${externalId}' already exists under this parent`
    + (existingId ? `: ${existingId}` : ''), 'metadata.external_id');

async function siblingWithExternalId(db: Knex, parentId: string, externalId: string): Promise<string | null> {
  const row = await db('accounts').where({ parent_id: parentId, external_id: externalId }).first('id');
  return row?.id ?? null;
}

/** An account made with affiliate_code becomes a partner business of the user with that username, and of that
 * user's own referrer (handlers/partners/refer.ts; the referrer was checked by POST /accounts; an unknown one here
 * refers nobody). */
export async function referPartnerBusiness(db: Knex, accountId: string, username: string): Promise<void> {
  const partner = await db('users').whereRaw('lower(username) = lower(?)', [username]).first('id');
  if (!partner) return;
  await referAccount(db, accountId, partner.id);
}

export async function insertAccount(db: Knex, input: NewAccount): Promise<Tables['accounts']> {
  const metadata = input.metadata ?? {};
  const externalId = externalIdOf(metadata);
  const parentId = input.parentId ?? null;
  if (externalId && parentId) {
    const existing = await siblingWithExternalId(db, parentId, externalId);
    if (existing) throw duplicateExternalId(externalId, existing);
  }
  const base = slug(input.title);
  const values = {
    parent_id: parentId,
    title: input.title,
    email: input.email ?? null,
    country: input.country ?? null,
    metadata: JSON.stringify(metadata),
    external_id: externalId,
    send_customer_emails: input.sendCustomerEmails ?? false,
    affiliate_code: input.affiliateCode ?? null,
    blueprint_id: input.blueprintId ?? null,
    owner_user_id: input.ownerUserId ?? null,
    // A connected account runs on its parent's sandbox clock (handlers/clocks), if it has one.
    ...(parentId ? { clock_id: db.raw('(select p.clock_id from accounts p where p.id = ?)', [parentId]) } : {}),
  };
  // ON CONFLICT DO NOTHING instead of catching a unique violation: the caller's transaction stays usable, and a
  // concurrent insert of the same external id is waited for, so the re-check below sees it once committed.
  for (let attempt = 0; attempt < 5; attempt++) {
    const route = attempt === 0 ? base : `${base}-${randomToken(6).toLowerCase()}`;
    const [row]: Tables['accounts'][] = await db('accounts')
      .insert({ ...values, id: newId('biz_'), route, client_id: `client_${randomToken(24)}` })
      .onConflict()
      .ignore()
      .returning('*');
    if (row) {
      if (row.affiliate_code) await referPartnerBusiness(db, row.id, row.affiliate_code);
      if (input.ownerUserId) {
        await db('team_members').insert({
          id: newId('tmem_'), account_id: row.id, user_id: input.ownerUserId, role: 'owner', status: 'active', accepted_at: nowMs(db),
        });
      }
      return row;
    }
    if (externalId && parentId) {
      const existing = await siblingWithExternalId(db, parentId, externalId);
      if (existing) throw duplicateExternalId(externalId, existing);
    }
    // Otherwise the route slug was taken: retry with a random suffix.
  }
  throw new Error(`Could not allocate a unique route for '${input.title}'`);
}
