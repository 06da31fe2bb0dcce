// Idempotency-Key: the first request with a key claims it; retries replay the stored response; the same key
// with a different request is a 400; a retry while the first is still running is a 409. Keys are scoped to
// the credential and kept for 24 hours.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, invalid } from './errors.js';
import { query } from './request-db.js';

export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  status: number;
  body: unknown;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export function requestHash(operationId: string, path: unknown, body: unknown): string {
  return createHash('sha256').update(JSON.stringify([operationId, canonical(path), canonical(body ?? null)])).digest('hex');
}

export function checkKey(key: string): void {
  if (key.length > 255) throw invalid('Idempotency-Key must be at most 255 characters', 'Idempotency-Key');
}

/** Claims the key, or returns the stored response to replay. Runs outside the request transaction. */
export async function claim(
  db: Knex,
  credentialId: string,
  key: string,
  operationId: string,
  hash: string,
): Promise<StoredResponse | null> {
  // Fixed SQL on plain pg: this runs on every create (runtime/request-db.ts query).
  const inserted = await query(db, `insert into idempotency_keys (credential_id, key, operation_id, request_hash, state, expires_at)
    values ($1, $2, $3, $4, 'running', now() + interval '${IDEMPOTENCY_TTL_HOURS} hours')
    on conflict (credential_id, key) do nothing returning key`, [credentialId, key, operationId, hash]);
  if (inserted.length) return null;
  // An expired record is as good as none: take it over.
  const retaken = await query(db, `update idempotency_keys set operation_id = $3, request_hash = $4, state = 'running',
    status_code = null, response = null, expires_at = now() + interval '${IDEMPOTENCY_TTL_HOURS} hours', updated_at = now()
    where credential_id = $1 and key = $2 and expires_at < now() returning key`, [credentialId, key, operationId, hash]);
  if (retaken.length) return null;
  const row = await db('idempotency_keys').where({ credential_id: credentialId, key }).first();
  if (!row) return claim(db, credentialId, key, operationId, hash);
  if (row.request_hash !== hash) {
    throw new ApiError(400, 'idempotency_error',
      'This Idempotency-Key was already used with a different request; use a new key for a new request', 'Idempotency-Key');
  }
  if (row.state === 'running') {
    throw new ApiError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  return { status: row.status_code, body: row.response };
}

/** Records the response; called inside the request transaction so it commits with the request's writes. */
export async function complete(db: Knex, credentialId: string, key: string, response: StoredResponse): Promise<void> {
  await query(db, `update idempotency_keys set state = 'done', status_code = $3, response = $4, updated_at = now()
    where credential_id = $1 and key = $2`, [credentialId, key, response.status, JSON.stringify(response.body)]);
}

/** Frees the key after a failure that must not be replayed (a server error). */
export async function release(db: Knex, credentialId: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ credential_id: credentialId, key, state: 'running' }).delete();
}
