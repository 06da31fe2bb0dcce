// The shape of the YAML spec after parsing and validation against the meta-schema.
// Field types have a shorthand ("string", "timestamp?") that normalise() expands into FieldSpec.

export const SCALAR_TYPES = [
  'string', 'integer', 'number', 'boolean', 'timestamp', 'date', 'email', 'url', 'any', 'money', 'metadata',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** epoch_timestamp: derived for older versions only (a timestamp input that also took epoch seconds) */
export type FieldType = ScalarType | 'id' | 'enum' | 'object' | 'array' | 'map' | 'ref' | 'epoch_timestamp';

/** The column type an integer input is stored in; its range bounds the input where min or max does not. */
export type Storage = 'int2' | 'int4' | 'int8';

export interface FieldSpec {
  type: FieldType;
  nullable?: boolean;
  description?: string;
  /** type id: the resource whose prefix the id carries */
  resource?: string;
  /** type enum */
  values?: string[];
  /** type enum: take the values from a catalogue of the spec instead (`events`: every declared event name) */
  values_from?: 'events';
  /** type ref: a resource or component by name */
  ref?: string;
  /** type object */
  fields?: Record<string, FieldSpec>;
  /** type array */
  items?: FieldSpec;
  /** type map: the type of every value */
  of?: FieldSpec;
  /** request inputs only */
  required?: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  /** type integer: the column type it is stored in (generator/input-rules.ts) */
  storage?: Storage;
  min_length?: number;
  max_length?: number;
  max_items?: number;
  pattern?: string;
  /** request inputs only: set by an older version's request upgrader for the handler, never accepted from a caller */
  internal?: boolean;
  /** path parameters only: the segment is a bearer secret, which request logs write as [redacted] */
  secret?: boolean;
  /** path parameters only: other names a caller may give the row by; the runtime turns them into its id before the
   * handler runs (runtime/path-aliases.ts) */
  aliases?: PathAliases;
  /** a resource's own field, or an operation's query or body field, kept for its users beside its successor
   * (generator/deprecated-fields.ts) */
  deprecated?: FieldDeprecation;
}

/** A deprecated field: since which version, the field that replaces it (a sibling; null when none), when it stops
 * being served (accepted only on evidence: generator/sunset-evidence.ts), and why, for readers. */
export interface FieldDeprecation {
  since: string;
  successor: string | null;
  sunset?: string;
  note?: string;
}

/** How a path parameter's other names resolve: `me` is the user behind the credential; a value without the id's
 * prefix is looked up by a unique column of a table. */
export interface PathAliases {
  me?: boolean;
  lookup?: { table: string; column: string; ignore_case?: boolean };
}

export type RawField = string | FieldSpec;

export interface ResourceSpec {
  prefix?: string;
  object?: string;
  description?: string;
  fields: Record<string, FieldSpec>;
  /** where the resource is stored (resource-level `table:`; not a field's `storage:`), for declared views and plain operations */
  table?: TableSpec;
}

/** A resource's table: its rows are the resource, viewed through `columns` where a field is not its same-named column. */
export interface TableSpec {
  name: string;
  /** a timestamp column; a row where it is set does not exist (404, never listed), and a plain delete sets it */
  soft_delete?: string;
  /** how messages name one ("No such API key"); defaults to the object name with spaces */
  noun?: string;
  columns?: Record<string, ColumnSpec>;
}

/** How one field of a stored resource is read: a column name, or one of the forms below. */
export type ColumnSpec = string | ColumnForm;

export interface ColumnForm {
  /** the column (default: the field's name; for money, the amount's column) */
  column?: string;
  /** present only when this column is not null, or these columns hold these values; null otherwise */
  when?: string | Record<string, string>;
  /** money: the currency's column (default currency) */
  currency?: string;
  /** a SQL expression over the row (the table is named by its name) */
  sql?: string;
  /** a constant (null: a field reads never show, such as a secret) */
  value?: unknown;
  /** module#export under handlers/: a function of the row, for what only code can say; with `sql`, the row
   * carries that expression's value as `$<field>` for the function to read */
  code?: string;
  /** with code or caller: the row's own columns the function (or the handler adding the field) reads, so that a read
   * for the view alone (`viewById`) selects only what the view needs; a view with such a field that does not say
   * reads them all. [] when it reads only its `sql` value */
  reads?: string[];
  /** the caller decides this field (what its credential may see): the generated view leaves it out and the
   * resource's handlers add it; with `sql`, the statement still reads what they need, as `$<field>` */
  caller?: true;
  /** an object field read from a joined table (its fields are that table's columns) */
  join?: string;
  /** with join: the column of this table holding the joined row's id */
  on?: string;
  /** an object field: how its own fields are read */
  columns?: Record<string, ColumnSpec>;
}

/** An operation the generator builds whole from its resource's table: no handler, at most one hook. */
export interface PlainSpec {
  kind: 'retrieve' | 'list' | 'delete' | 'update' | 'summary' | 'transition' | 'create' | 'action';
  /** transition: the state machine (named after the resource answered) and the transition of it the operation makes */
  machine?: string;
  transition?: string;
  /** transition: timestamp fields set to now by the move, with the state */
  stamp?: string[];
  /** transition: `unchanged`: a move to the state the row is already in writes nothing and records no event */
  same_state?: 'unchanged';
  /** summary: the totals table it reads (migrations/support/totals.ts) */
  totals?: string;
  /** list: query parameter -> the test it applies */
  filters?: Record<string, FilterSpec>;
  /** list: the fields it may be sorted by, the default first; with several, the `order` parameter picks one */
  sort?: string[];
  /** list without account_id: a user token holding the scope on no account is refused (403, with this message)
   * rather than given an empty list */
  held_nowhere?: string;
  /** list: the stored resource whose object (by the path's {id}) the rows belong to, read as its retrieve reads it,
   * and the listed table's column naming it */
  parent?: { resource: string; column: string };
  /** update: the body fields written (metadata fields merge key by key) */
  fields?: string[];
  /** create, delete, update, transition, action: the event recorded with the resource (as it was, for a delete) */
  emits?: string;
  /** create: a unique constraint (or unique index) of the table, by name -> the error its violation by the insert answers */
  unique?: Record<string, UniqueErrorSpec>;
  /** what the operation's hook in handlers/<area>/<operationId>.ts does, in words; or a hook several operations share */
  hook?: string | SharedHookSpec;
  /** delete: rows of other tables deleted with the row, before it (runtime/plain/remove.ts) */
  cascade?: CascadeSpec[];
  /** retrieve, transition, action, delete: the code finding the row (its owner rules, a lock, an id's other forms)
   * instead of the runtime's by-id read under the scopes and `own` */
  find?: SharedHookSpec;
  /** list, retrieve, transition: the fields only code computes over the whole page (or the one object) */
  fill?: FillSpec;
  /** retrieve: how the row's own user (a column naming them) reaches it by their user token */
  own?: OwnSpec;
  /** retrieve, list: the row's owner, an account or a user, named by a column (runtime/plain/row-owner.ts) */
  owner?: OwnerSpec;
}

/** `plain.hook` naming shared code: `code` (`module#export` under handlers/) is the hook, typed against each operation
 * that names it; `does` says what it does, as the string form does. */
export interface SharedHookSpec {
  code: string;
  does: string;
}

/** `plain.unique`: the error a create's insert answers when it breaks the constraint: `status` (default 409) and
 * `type` (default conflict); `message` a template where `{field}` is the value written for that body field (after
 * the hook), and `param` the body field it names. */
export interface UniqueErrorSpec {
  status?: 400 | 409;
  type?: string;
  message: string;
  param: string;
}

/** `plain.cascade`: the rows of `table` whose `column` names the deleted row; soft-deleted (its soft_delete column
 * and updated_at set, live rows only) when a stored resource of that table soft-deletes, else deleted. */
export interface CascadeSpec {
  table: string;
  column: string;
}

/** `plain.own` (runtime/plain/own-rows.ts). */
export interface OwnSpec {
  /** the column naming the row's user */
  user: string;
  /** absent: the user reads the row without the scopes; else the 403 message they get on an account they cannot see */
  refused?: string;
  /** only the row's user reads it (anyone else: 404) */
  only?: boolean;
}

/** `plain.owner` (runtime/plain/row-owner.ts): the column names an account (reached with the operation's scopes on
 * it) or a user (an id with the User resource's prefix, reached by that user's own token alone). */
export interface OwnerSpec {
  column: string;
  /** list: the query parameter naming the one owner listed; not sent, the caller's own */
  query?: string;
}

/** A fill: `code` (`module#export` under handlers/, a runtime/plain/hooks.ts `Fill`) is made from the request's
 * `query` parameters before anything is read, then sets `fields` on the page's views in one statement. */
export interface FillSpec {
  code: string;
  /** the query parameters it takes (a list's filters do not apply them) */
  query?: string[];
  /** the fields it sets: fields of the resource not read from a column (`value:` placeholders, code) */
  fields: string[];
}

/** equal: `field = value` (a list: IN); keyed: the same on a column that an index holds right before the sort key
 * (owner, field, created_at, id), which the page then walks value by value (runtime/pagination.ts, Walk); after/before:
 * strict bounds; contains: a case-insensitive substring of any; exists: a related row of another table holds the value;
 * hook: the hook applies it. A string is the form on the field of the parameter's own name. */
export type FilterSpec = 'equal' | 'keyed' | 'hook'
  | { equal?: string; keyed?: string; after?: string; before?: string; contains?: string[]; exists?: ExistsSpec };

/** `exists`: some row of `table` relates to the listed row (`on`: its column naming the listed row's id, or
 * `{ its column: the listed row's column }`) and holds the value in its column `equal`; `empty: unfiltered`: an empty
 * text narrows nothing, as though it were not sent. */
export interface ExistsSpec {
  table: string;
  on: string | Record<string, string>;
  equal: string;
  empty?: 'unfiltered';
}

export interface ListSpec {
  of: string;
  default_page_size: number;
  max_page_size: number;
  /** fields of the page beside data and page_info; one named by a list_field_removed instruction is shown only at
   * the versions before it (the head keeps it so that the handler can serve older callers) */
  fields?: Record<string, FieldSpec>;
}

export interface ResponseSpec {
  status: number;
  /** a resource or component name, or an inline object */
  type?: string;
  list?: ListSpec;
  deleted?: string;
  fields?: Record<string, FieldSpec>;
}

export type AuthKind = 'api_key' | 'user_token' | 'client';

export interface OperationSpec {
  id: string;
  area: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  description?: string;
  handler: string;
  auth: AuthKind[];
  scopes: string[];
  /** where the account this operation acts on is named: "path.id", "query.account_id", "body.account_id" */
  account?: string;
  idempotent: boolean;
  path_params: Record<string, FieldSpec>;
  query: Record<string, FieldSpec>;
  body?: Record<string, FieldSpec>;
  response: ResponseSpec;
  errors: number[];
  deprecated?: { successor?: string; sunset?: string };
  /** built whole from its resource's table (a plain retrieve, list, delete or update) */
  plain?: PlainSpec;
  /** the operation whose handler serves this one (its `handler` is then that operation's): a deprecated route with
   * the target's inputs and response, and no handler file of its own (generator/aliases.ts) */
  same_as?: string;
  /** retired: from `since` on the operation answers 410 gone; `shaped` when it declares its shape (a response), so
   * versions before `since` serve it in that shape (generator/gone.ts); without, it has no handler */
  gone?: { since: string; successor?: string; shaped?: boolean };
  /** file, line and column of the operation's key, for messages */
  where: string;
}

export interface ErrorSpec {
  status: number;
  description: string;
}

export interface RoleSpec {
  description: string;
  scopes: string[];
}

export interface VersionSpec {
  date: string;
  description: string;
  changes: ChangeSpec[];
}

export interface ChangeSpec {
  /** the change's name: its file's, spec/versions/<date>/<name>.yaml (absent for specs built in code) */
  name?: string;
  /** that file, relative to the project, for messages */
  file?: string;
  /** the changelog text */
  description: string;
  /** its number in the changelog: its position among all changes, newest first (1 = newest; set by the loader) */
  entry?: number;
  /** recorded with its text; its resource is not built yet */
  pending?: boolean;
  /** a named migration this change belongs to, e.g. members_and_memberships */
  migration?: string;
  /** behaviour changes that are not shape changes, read by handlers through ctx.flag(name) */
  flags?: string[];
  /** declarative instructions: what the version before this change looked like */
  instructions?: Record<string, unknown>[];
  /** where each instruction is written, file:line:col (set by load-spec; absent for specs built in code) */
  instructionsAt?: string[];
}

export interface StateMachineSpec {
  area: string;
  field: string;
  description?: string;
  /** timed steps as data: days after a starting instant (emitted into spec-data) */
  schedules?: Record<string, { days: number[]; description: string }>;
  transitions: Record<string, { from: string[]; to: string; description?: string }>;
}

export interface RateLimitSpec {
  requests: number;
  per_seconds: number;
  description?: string;
}

export interface WebhookDeliverySpec {
  /** how long an attempt waits for an answer */
  timeout_seconds: number;
  /** the wait before each retry, in order; the delivery fails after the last */
  retry_schedule_seconds: number[];
  /** each wait varies by up to this fraction either way */
  jitter: number;
  /** the longest wait a receiver's Retry-After (429, 503) can ask for */
  retry_after_max_seconds: number;
  /** a subscription whose deliveries have all failed for this long is disabled */
  disable_after_failing_seconds: number;
  description?: string;
}

export interface ApiSpec {
  info: { title: string; version: string; base_path: string; description?: string };
  scopes: Record<string, { description: string }>;
  roles: Record<string, RoleSpec>;
  user_scopes: string[];
  errors: Record<string, ErrorSpec>;
  /** request budgets per credential (runtime/rate-limit.ts) */
  rate_limits: Record<'read' | 'write', RateLimitSpec>;
  /** how webhook deliveries are retried and when a failing subscription is disabled (handlers/webhooks/delivery) */
  webhook_delivery?: WebhookDeliverySpec;
  components: Record<string, ResourceSpec>;
  resources: Record<string, ResourceSpec & { area: string }>;
  operations: OperationSpec[];
  versions: VersionSpec[];
  version_flags: Record<string, { description: string; since: string }>;
  /** event name -> the schema its data carries */
  events: Record<string, { schema: string; description: string; area?: string }>;
  /** resource name -> its lifecycle */
  state_machines: Record<string, StateMachineSpec>;
  /** area (spec/areas/<area>.yaml) -> its description: the OpenAPI documents' tag of the area's operations */
  areas: Record<string, { description?: string }>;
}
