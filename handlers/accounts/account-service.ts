// Creating accounts: id, unique route slug and client id. Used by POST /accounts, the CLI and the demo seed.
import type { Knex } from 'knex';
import { newId, randomToken } from '../../runtime/ids.js';
import { conflict } from '../../runtime/errors.js';

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

function slug(title: string): string {
  const base = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  return base || 'account';
}

export async function insertAccount(db: Knex, input: NewAccount): Promise<Record<string, any>> {
  const metadata = input.metadata ?? {};
  const externalId = typeof metadata.external_id === 'string' ? metadata.external_id : null;
  if (externalId && input.parentId) {
    const existing = await db('accounts').where({ parent_id: input.parentId, external_id: externalId }).first('id');
    if (existing) throw conflict(`A connected account with metadata.external_id '${externalId}' already exists: ${existing.id}`, 'metadata');
  }
  const base = slug(input.title);
  const taken = await db('accounts').where('route', base).first('id');
  const route = taken ? `${base}-${randomToken(6).toLowerCase()}` : base;
  const [row] = await db('accounts')
    .insert({
      id: newId('biz_'),
      parent_id: input.parentId ?? null,
      title: input.title,
      email: input.email ?? null,
      country: input.country ?? null,
      route,
      metadata: JSON.stringify(metadata),
      external_id: externalId,
      send_customer_emails: input.sendCustomerEmails ?? false,
      affiliate_code: input.affiliateCode ?? null,
      blueprint_id: input.blueprintId ?? null,
      owner_user_id: input.ownerUserId ?? null,
      client_id: `client_${randomToken(24)}`,
    })
    .returning('*');
  if (input.ownerUserId) {
    await db('team_members').insert({
      id: newId('tmem_'), account_id: row.id, user_id: input.ownerUserId, role: 'owner', status: 'active', accepted_at: db.fn.now(),
    });
  }
  return row;
}
