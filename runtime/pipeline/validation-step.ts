// Validation: the path, query and body as the caller's version declares them (each a 400 naming what is wrong), with
// path aliases resolved to ids.
import { ApiError } from '../errors.js';
import { validate } from '../validation.js';
import { normaliseQuery } from '../query-params.js';
import { resolvePathAliases } from '../path-aliases.js';
import type { OperationCall, OperationInput } from './operation-call.js';
import type { VersionedInput } from '../operation.js';
import type { Eventually } from '../eventually.js';

/** The input as sent: the body is read only when the operation takes one. */
export interface SentInput {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: () => Promise<unknown>;
}

/** Without a promise when nothing must be awaited: no body to read, no alias to look up. */
export function validatedInput({ op, at, db, principal }: OperationCall, sent: SentInput): Eventually<OperationInput> {
  const path = { ...sent.params };
  validate('path', at.path, path);
  if (op.pathAliases) return resolvePathAliases(op.pathAliases, path, db, principal).then(() => withQueryAndBody(at, sent, path));
  return withQueryAndBody(at, sent, path);
}

function withQueryAndBody(at: VersionedInput, sent: SentInput, path: Record<string, string>): Eventually<OperationInput> {
  const query = normaliseQuery(sent.query);
  validate('query', at.query, query);
  if (!at.body) return { path, query, body: undefined };
  const schema = at.body;
  return sent.body().then((given) => {
    // No body is an empty one; a JSON null is a body, and not an object.
    const body = given === undefined ? {} : given;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, 'invalid_request', 'The body must be a JSON object');
    }
    validate('body', schema, body);
    return { path, query, body };
  });
}
