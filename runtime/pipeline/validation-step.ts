// Validation: the path, query and body as the caller's version declares them (each a 400 naming what is wrong), with
// path aliases resolved to ids.
import { ApiError } from '../errors.js';
import { validate } from '../validation.js';
import { normaliseQuery } from '../query-params.js';
import { resolvePathAliases } from '../path-aliases.js';
import type { OperationCall, OperationInput } from './operation-call.js';

/** The input as sent: the body is read only when the operation takes one. */
export interface SentInput {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: () => Promise<unknown>;
}

export async function validatedInput({ op, at, db, principal }: OperationCall, sent: SentInput): Promise<OperationInput> {
  const path = { ...sent.params };
  validate('path', at.path, path);
  if (op.pathAliases) await resolvePathAliases(op.pathAliases, path, db, principal);
  const query = normaliseQuery(sent.query);
  validate('query', at.query, query);
  let body: unknown;
  if (at.body) {
    // No body is an empty one; a JSON null is a body, and not an object.
    const given = await sent.body();
    body = given === undefined ? {} : given;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, 'invalid_request', 'The body must be a JSON object');
    }
    validate('body', at.body, body);
  }
  return { path, query, body };
}
