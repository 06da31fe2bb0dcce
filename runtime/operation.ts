// An operation as the generator declares it: its route, callers, scopes, idempotency, and at each version its
// validators and shape changes. How one runs: runtime/pipeline/ (the Current API) and runtime/v2/ (the v2 API).
import type { CompiledValidator } from './validation.js';
import type { AuthKind } from './principal.js';
import type { HandlerContext } from './handler.js';
import type { PathAlias } from './path-aliases.js';
import type { Successor } from './successor-link.js';

export interface VersionedInput {
  path: CompiledValidator;
  query: CompiledValidator;
  body: CompiledValidator | null;
  /** older request shape -> newest; null at the newest version and wherever nothing changed */
  upgrade: ((input: any) => void) | null;
  /** newest response shape -> this version's; null where identical */
  downgrade: ((output: any) => any) | null;
  /** the success status at this version, when it differs from the operation's (e.g. 200 before creates were 201) */
  status?: number;
  /** inputs this version names differently: head name -> this version's name (company_id for account_id) */
  olderNames?: Record<string, string>;
  /** the response's schema has fields the head hides and this version shows (field_hidden): filled before rendering */
  fill?: { schema: string; list: boolean };
}

export interface OperationDefinition {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** path parameters declared `secret: true`: request logs write them as [redacted] (runtime/secret-paths.ts) */
  secretParams?: readonly string[];
  auth: AuthKind[];
  scopes: string[];
  account: { from: 'path' | 'query' | 'body'; name: string } | null;
  idempotent: boolean;
  status: number;
  list: { defaultPageSize: number; maxPageSize: number } | null;
  deprecated: (Successor & { sunset?: string }) | null;
  /** path parameters a caller may give by another name (`me`, a username): resolved to ids before the handler */
  pathAliases?: Record<string, PathAlias>;
  /** retired operations answer 410 from `since` on */
  gone: { since: string; successor?: string } | null;
  /** the versions at which the operation exists, each with its input validators */
  versions: Record<string, VersionedInput>;
  // Handlers are typed per operation in handlers/; here they are only called.
  handler: ((input: any, ctx: HandlerContext) => Promise<unknown>) | null;
}
