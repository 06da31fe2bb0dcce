// Scopes: the credential must hold the operation's scopes, on the account the input names when it names one.
import { forbidden } from '../errors.js';
import type { Access } from '../access.js';
import type { OperationDefinition } from '../operation.js';
import { whenInstalled } from '../api-definition.js';
import { inCallersNames } from './callers-names.js';
import type { OperationCall, OperationInput } from './operation-call.js';
import type { Eventually } from '../eventually.js';

let userScopes: ReadonlySet<string> = new Set();
whenInstalled(({ spec }) => {
  userScopes = new Set(spec.userScopes);
});

/** Without a promise when the scopes are known (runtime/access.ts). */
export function checkScopes({ op, at }: OperationCall, access: Access, input: OperationInput): Eventually<void> {
  const named = (e: unknown) => inCallersNames(e, at.olderNames);
  try {
    const checked = requireScopes(op, access, input);
    return checked instanceof Promise ? checked.catch((e) => { throw named(e); }) : checked;
  } catch (e) {
    throw named(e);
  }
}

function requireScopes({ account, scopes }: OperationDefinition, access: Access, input: OperationInput): Eventually<void> {
  if (account) {
    const accountId = (input[account.from] as Record<string, unknown> | undefined)?.[account.name];
    if (typeof accountId === 'string') return access.require(accountId, scopes, account.name);
  }
  for (const scope of scopes) {
    // Without a named account, user tokens are checked per account by the handler, except for user-level scopes.
    const checkHere = access.principal.kind !== 'user_token' || userScopes.has(scope);
    if (checkHere && !access.holds(scope)) throw forbidden(`This credential lacks the ${scope} permission`);
  }
}
