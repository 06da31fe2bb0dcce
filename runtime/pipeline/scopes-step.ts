// Scopes: the credential must hold the operation's scopes, on the account the input names when it names one.
import { forbidden } from '../errors.js';
import type { Access } from '../access.js';
import type { OperationDefinition } from '../operation.js';
import { whenInstalled } from '../api-definition.js';
import { inCallersNames } from './callers-names.js';
import type { OperationCall, OperationInput } from './operation-call.js';

let userScopes: ReadonlySet<string> = new Set();
whenInstalled(({ spec }) => {
  userScopes = new Set(spec.userScopes);
});

export async function checkScopes({ op, at }: OperationCall, access: Access, input: OperationInput): Promise<void> {
  try {
    await requireScopes(op, access, input);
  } catch (e) {
    throw inCallersNames(e, at.olderNames);
  }
}

async function requireScopes({ account, scopes }: OperationDefinition, access: Access, input: OperationInput): Promise<void> {
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
