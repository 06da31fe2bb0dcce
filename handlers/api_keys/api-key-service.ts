// Issuing API keys: the secret is returned once and stored only as a hash. New keys pin the latest version.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { newSecret } from '../../runtime/credentials.js';
import { headVersion } from '../../runtime/versions.js';
import type { Statement } from '../../runtime/auth.js';

export interface NewApiKey {
  accountId: string;
  /** the app the key belongs to (one of accountId's); it acts for accountId */
  appId?: string | null;
  name: string;
  role?: string | null;
  statements?: Statement[];
  ipAllowlist?: string[];
  expiresAt?: string | null;
  createdByUserId?: string | null;
  apiVersionDate?: string | null;
}

export async function issueApiKey(db: Knex, input: NewApiKey) {
  const { secret, hash, hint } = newSecret('sk_');
  const [row] = await db('api_keys')
    .insert({
      id: newId('apik_'),
      account_id: input.accountId,
      app_id: input.appId ?? null,
      name: input.name,
      secret_hash: hash,
      secret_hint: hint,
      role: input.role ?? (input.statements?.length ? null : 'admin'),
      statements: JSON.stringify(input.statements ?? []),
      ip_allowlist: input.ipAllowlist ?? [],
      expires_at: input.expiresAt ?? null,
      created_by_user_id: input.createdByUserId ?? null,
      api_version_date: input.apiVersionDate ?? headVersion(),
    })
    .returning('*');
  return { row, secret };
}

/** Rotation: a fresh secret replaces the stored hash, so the old secret is refused from this commit on. */
export async function replaceApiKeySecret(db: Knex, id: string) {
  const { secret, hash, hint } = newSecret('sk_');
  const now = new Date().toISOString();
  const [row] = await db('api_keys')
    .where({ id })
    .update({ secret_hash: hash, secret_hint: hint, rotated_at: now, updated_at: now })
    .returning('*');
  return { row, secret };
}
