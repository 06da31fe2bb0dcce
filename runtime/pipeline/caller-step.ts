// Caller: each operation names the kinds of credential that may call it; another kind is refused, saying which to use.
import { forbidden } from '../errors.js';
import type { OperationDefinition } from '../operation.js';
import type { AuthKind, Principal } from '../principal.js';

const KIND_REFUSAL: Record<AuthKind, string> = {
  api_key: 'This operation cannot be called with an API key; use a user token',
  user_token: 'This operation cannot be called with a user token; use an API key',
  client: 'This operation cannot be called with a client id; use an API key or user token from your server',
};

export function checkCallerKind(op: OperationDefinition, principal: Principal): void {
  if (!op.auth.includes(principal.kind)) throw forbidden(KIND_REFUSAL[principal.kind]);
}
