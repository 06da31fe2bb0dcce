// Idempotency: a write sent with an Idempotency-Key runs once per credential and key. Its answer, success or refusal,
// is stored in the write's own transaction and replayed to a retry of the same request; a server error rolls
// everything back, freeing the key.
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import * as idempotency from '../idempotency.js';
import { inTransaction, refusedAtCommit } from '../request-db.js';
import { inCallersNames } from './callers-names.js';
import { errorBody } from './error-envelope.js';
import type { CallOutcome, HeaderSink, OperationCall, OperationInput } from './operation-call.js';

/** The call's key, checked; '' when the operation is not idempotent or none was sent. An older version's request
 * may carry the key in its body; its upgrade puts it in the input (the header wins). */
export function idempotencyKeyOf({ op }: OperationCall, header: string, input: OperationInput): string {
  if (!op.idempotent) return '';
  const key = header || (input as { idempotencyKey?: string }).idempotencyKey || '';
  if (key) idempotency.checkKey(key);
  return key;
}

/** Runs `work` once for the key, in one transaction with its stored answer. A retry is recognised by the input as
 * `sent` (validated, before its upgrade). A refusal's headers go to `headers`. */
export async function runIdempotently(call: OperationCall, sent: OperationInput, key: string,
  work: (conn: Knex) => Promise<unknown>, headers: HeaderSink): Promise<CallOutcome> {
  const { op, at, db, principal } = call;
  const credentialId = principal.credentialId;
  const hash = idempotency.requestHash(op.id, sent.path, sent.body);
  const status = at.status ?? op.status;
  const opening = idempotency.openingStatements(credentialId, key);
  /** A refusal's stored answer (a refusal is kept and replayed like a success); null for what is not one. */
  const refusal = (raised: unknown): idempotency.StoredResponse | null => {
    const e = inCallersNames(raised, at.olderNames);
    if (!(e instanceof ApiError) || e.status >= 500) return null;
    for (const [k, v] of Object.entries(e.headers)) headers.set(k, v);
    return { status: e.status, body: errorBody(e, call.request.state.requestId) };
  };
  // A success is written as text once: stored (sealed) and answered.
  const keep = async (trx: Knex, response: idempotency.StoredResponse): Promise<CallOutcome> => {
    const { status, body } = response;
    const text = call.serialize && status < 300 && typeof body === 'object' && body !== null ? call.serialize(body) : undefined;
    await idempotency.complete(trx, credentialId, key, op.id, hash, { status, body, text });
    return outcome({ status, body, text }, false);
  };
  try {
    return await inTransaction(db, async (trx, opened): Promise<CallOutcome> => {
      const replay = idempotency.claim(opened, hash);
      if (replay) return outcome(replay, true);
      let response: idempotency.StoredResponse;
      try {
        response = { status, body: await work(trx) };
      } catch (raised) {
        const refused = refusal(raised);
        if (!refused) throw inCallersNames(raised, at.olderNames);
        await idempotency.undoRequestWork(trx);
        response = refused;
      }
      return keep(trx, response);
    }, opening);
  } catch (raised) {
    const refused = refusedAtCommit(raised) ? refusal(raised) : null;
    if (!refused) throw raised;
    // Refused by a write sent with the COMMIT (request-db.ts refusableAtCommit): the transaction rolled back with the
    // key's claim, so the refusal is kept for the key in a transaction of its own. A retry that got there first has
    // the key: its stored answer to the same request is replayed, and while it runs (or if the key now holds another
    // request) this request answers its refusal without storing it.
    return inTransaction(db, async (trx, opened): Promise<CallOutcome> => {
      let replay: idempotency.StoredResponse | null;
      try {
        replay = idempotency.claim(opened, hash);
      } catch {
        return outcome(refused, false);
      }
      return replay ? outcome(replay, true) : keep(trx, refused);
    }, opening);
  }
}

/** A replay says so; its error envelope names this request, like every error, and the original's id goes in a header. */
export function markReplay(outcome: CallOutcome, headers: HeaderSink, requestId: string): void {
  headers.set('Idempotent-Replayed', 'true');
  const error = (outcome.body as { error?: { request_id?: string } } | null)?.error;
  if (error?.request_id) {
    headers.set('Original-Request', error.request_id);
    error.request_id = requestId;
  }
}

/** A stored response as the call's outcome, as a literal of its own: a spread copy with a property added
 * (`{ ...response, replayed }`) gets new hidden classes from V8 on every call (--log-maps), which pile up in the old
 * generation until a full collection. */
function outcome(response: idempotency.StoredResponse, replayed: boolean): CallOutcome {
  return { status: response.status, body: response.body, text: response.text, replayed };
}
