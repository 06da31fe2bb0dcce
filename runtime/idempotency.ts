// Idempotency-Key: the first request with a key runs; retries replay the stored response; the same key with a
// different request is a 400; a retry while the first is still running is a 409. Keys are scoped to the credential
// and kept for 24 hours.
//
// The claim lives and dies with the request's transaction: a transaction-scoped advisory lock on the key says "running"
// (PostgreSQL drops it at commit, rollback, or when the connection dies with its process), and the stored response is
// written in the same transaction as the request's own writes. So a crash at any point leaves the key either done,
// with the response of the writes that committed, or free for an immediate retry; nothing waits for an expiry.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError, invalid } from './errors.js';
import { atCommit, rollbackToSavepoint } from './request-db.js';
import { quoteLiteral } from './sql-literal.js';
import { isSealed, seal, unseal } from './sealed-secrets.js';

export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  status: number;
  body: unknown;
  /** the body as the JSON text answered, when the caller wrote it (a success, with the version's serialiser: only the
   * schema's fields); else JSON.stringify(body) is stored */
  text?: string;
}

/** Property names as JSON.stringify writes an object made by inserting them sorted: array-index names (which an
 * object keeps first, ascending) before the rest, sorted. */
const INDEX = /^(?:0|[1-9]\d{0,9})$/;
function canonicalOrder(keys: string[]): string[] {
  const indices: string[] = [];
  const rest: string[] = [];
  for (const key of keys) (INDEX.test(key) && Number(key) < 2 ** 32 - 1 ? indices : rest).push(key);
  return indices.length ? [...indices.sort((a, b) => Number(a) - Number(b)), ...rest.sort()] : rest.sort();
}

/** JSON text of a parsed JSON value with every object's keys in canonical order, written in one pass: the text
 * JSON.stringify gives for a copy with sorted keys, without the copy. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + (value[i] === undefined ? 'null' : canonicalJson(value[i]));
    return `${text}]`;
  }
  if (value !== null && typeof value === 'object') {
    let text = '';
    for (const key of canonicalOrder(Object.keys(value))) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${canonicalJson(item)}`;
    }
    return text ? `${text}}` : '{}';
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(operationId: string, path: unknown, body: unknown): string {
  return createHash('sha256').update(`[${JSON.stringify(operationId)},${canonicalJson(path)},${canonicalJson(body ?? null)}]`).digest('hex');
}

export function checkKey(key: string): void {
  if (key.length > 255) throw invalid('Idempotency-Key must be at most 255 characters', 'Idempotency-Key');
}

/** The advisory lock's 64-bit key for a credential's Idempotency-Key (a hash: the key itself is the client's text). */
export function lockKey(credentialId: string, key: string): bigint {
  return createHash('sha256').update(credentialId).update('\0').update(key).digest().readBigInt64BE(0);
}

const SAVEPOINT = 'idempotent_request';

/**
 * The statements that open a keyed request's transaction (sent with its BEGIN in one round trip): try the key's
 * lock, read the key's stored response, then mark where the request's own work starts, so a refused request's
 * writes can be undone while the record of its refusal commits. Each statement of a multi-statement query takes its
 * own snapshot, so the read, coming after the lock, sees the commit of a request that released it. The lock key is a
 * number we computed; the credential id and the client's key text are quoted as literals (runtime/sql-literal.ts)
 * (the one round trip admits no parameters).
 */
export function openingStatements(credentialId: string, key: string): string[] {
  return [
    `select pg_try_advisory_xact_lock(${lockKey(credentialId, key)}) as locked`,
    `select request_hash, status_code, response from idempotency_keys
      where credential_id = ${quoteLiteral(credentialId)} and key = ${quoteLiteral(key)} and state = 'done' and expires_at > now()`,
    `SAVEPOINT ${SAVEPOINT}`,
  ];
}

/**
 * Given the opening statements' rows, in the request's transaction: the stored response to replay, or null when this
 * request is to run. Throws 409 while another request holds the key, 400 when the key was used for another request.
 */
export function claim(opened: any[][], hash: string): StoredResponse | null {
  if (!opened[0]?.[0]?.locked) {
    throw new ApiError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
  }
  const row = opened[1]?.[0];
  if (!row) return null;
  if (row.request_hash !== hash) {
    throw new ApiError(400, 'idempotency_error',
      'This Idempotency-Key was already used with a different request; use a new key for a new request', 'Idempotency-Key');
  }
  return { status: row.status_code, body: openedBody(row.response) };
}

// A stored response may show a secret once (a new API key's, a webhook's, a claim link's code): it is kept sealed
// (runtime/sealed-secrets.ts), with the id of what the request made beside it for whoever reads the table. `text` is
// the body as the answer's JSON text (StoredResponse.text), sealed as it is.
function sealedBody(body: unknown, text: string): { id?: unknown; sealed: string } {
  const id = body && typeof body === 'object' && 'id' in body ? (body as { id: unknown }).id : undefined;
  return id === undefined ? { sealed: seal(text) } : { id, sealed: seal(text) };
}

function openedBody(stored: any): unknown {
  // Records written before responses were sealed are replayed as they are.
  if (!(stored && typeof stored.sealed === 'string' && isSealed(stored.sealed))) return stored;
  try {
    return JSON.parse(unseal(stored.sealed));
  } catch {
    // Sealed under another server secret (FILE_SIGNING_SECRET changed): the request ran, but its answer is lost.
    throw new ApiError(409, 'idempotency_error',
      'The response to this Idempotency-Key can no longer be read (the server\'s secret changed); read the object it made, or use a new key',
      'Idempotency-Key');
  }
}

/** Records the response in the request's transaction, replacing an expired record of the key; sent with the COMMIT
 * (runtime/request-db.ts atCommit), its values quoted as literals. */
export async function complete(db: Knex, credentialId: string, key: string, operationId: string, hash: string,
  response: StoredResponse): Promise<void> {
  await atCommit(db, recordStatement(credentialId, key, operationId, hash, response));
}

/** The statement that records a key's response (a simple query: its values are literals). */
export function recordStatement(credentialId: string, key: string, operationId: string, hash: string, response: StoredResponse): string {
  const values = [credentialId, key, operationId, hash].map(quoteLiteral).join(', ');
  return `insert into idempotency_keys (credential_id, key, operation_id, request_hash, state, status_code, response, expires_at)
    values (${values}, 'done', ${Number(response.status)}, ${quoteLiteral(JSON.stringify(sealedBody(response.body, response.text ?? JSON.stringify(response.body))))}::jsonb,
      now() + interval '${IDEMPOTENCY_TTL_HOURS} hours')
    on conflict (credential_id, key) do update set operation_id = excluded.operation_id, request_hash = excluded.request_hash,
      state = 'done', status_code = excluded.status_code, response = excluded.response, expires_at = excluded.expires_at, updated_at = now()`;
}

/** Undoes a refused request's writes, keeping the key's lock, so its refusal can be recorded and committed. */
export const undoRequestWork = (db: Knex) => rollbackToSavepoint(db, SAVEPOINT);
