// Idempotency-Key: the first request with a key claims it; retries replay the stored response; the same key
// with a different request is a 400; a retry while the first is still running is a 409. Keys are scoped to
// the credential and kept for 24 hours.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, invalid } from './errors.js';

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
  const expires = db.raw(`now() + interval '${IDEMPOTENCY_TTL_HOURS} hours'`);
  const inserted = await db('idempotency_keys')
    .insert({ credential_id: credentialId, key, operation_id: operationId, request_hash: hash, state: 'running', expires_at: expires })
    .onConflict(['credential_id', 'key'])
    .ignore()
    .returning('key');
  if (inserted.length) return null;
  // An expired record is as good as none: take it over.
  const retaken = await db('idempotency_keys')
    .where({ credential_id: credentialId, key })
    .where('expires_at', '<', db.fn.now())
    .update({ operation_id: operationId, request_hash: hash, state: 'running', status_code: null, response: null, expires_at: expires, updated_at: db.fn.now() })
    .returning('key');
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
  await db('idempotency_keys')
    .where({ credential_id: credentialId, key })
    .update({ state: 'done', status_code: response.status, response: JSON.stringify(response.body), updated_at: db.fn.now() });
}

/** Frees the key after a failure that must not be replayed (a server error). */
export async function release(db: Knex, credentialId: string, key: string): Promise<void> {
  await db('idempotency_keys').where({ credential_id: credentialId, key, state: 'running' }).delete();
}
