// The format of stored resources (a resource's `table:`) and plain operations (an operation's `plain:`), as JSON
// Schema; meta-schema.ts places them. What a schema cannot say (that names exist, forms that exclude each other) is
// checked by plain/check-table.ts and plain/check-plain.ts.

const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };
/** a field of the resource, or `relation.column` through a joined table */
const fieldPath = { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)?$' };

/** `module#export` under handlers/ */
const codeName = { type: 'string', pattern: '^[a-z_]+/[a-z0-9-]+#[a-zA-Z][a-zA-Z0-9]*$' };

/** A name (`name`) or a mapping (`mapping`): if/then rather than anyOf, so a problem is reported once, in the form
 * the author wrote. */
function nameOr(mapping: Record<string, unknown>, name: Record<string, unknown> = identifier) {
  return { type: ['string', 'object'], if: { type: 'string' }, then: name, else: mapping };
}

const columnForm = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    column: identifier,
    when: nameOr({ type: 'object', propertyNames: identifier, additionalProperties: { type: 'string' }, minProperties: 1 }),
    currency: identifier,
    sql: { type: 'string', minLength: 1 },
    value: {},
    code: codeName,
    reads: { type: 'array', items: identifier, uniqueItems: true },
    caller: { const: true },
    join: identifier,
    on: identifier,
    columns: { $ref: '#/$defs/tableColumns' },
  },
};

export const tableDefs = {
  tableColumns: {
    type: 'object',
    propertyNames: identifier,
    additionalProperties: nameOr(columnForm, identifier),
  },
  table: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: identifier,
      soft_delete: identifier,
      noun: { type: 'string', minLength: 1 },
      columns: { $ref: '#/$defs/tableColumns' },
    },
  },
  plain: {
    type: 'object',
    additionalProperties: false,
    required: ['kind'],
    properties: {
      kind: { enum: ['retrieve', 'list', 'delete', 'update', 'summary', 'transition', 'create', 'action'] },
      machine: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' },
      transition: identifier,
      stamp: { type: 'array', items: identifier, minItems: 1 },
      same_state: { const: 'unchanged', description: 'a move to the state the row is in already writes nothing and records no event' },
      totals: identifier,
      filters: {
        type: 'object',
        propertyNames: identifier,
        additionalProperties: nameOr({
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
          properties: {
            equal: fieldPath,
            keyed: fieldPath,
            after: fieldPath,
            before: fieldPath,
            contains: { type: 'array', items: fieldPath, minItems: 1 },
            exists: {
              type: 'object',
              additionalProperties: false,
              required: ['table', 'on', 'equal'],
              description: 'a row of another table related to the listed row holds the value: table, on (its column naming the listed row\'s id, or { its column: the listed row\'s column }), equal (its column holding the value)',
              properties: {
                table: identifier,
                on: nameOr({ type: 'object', propertyNames: identifier, additionalProperties: identifier, minProperties: 1, maxProperties: 1 }),
                equal: identifier,
                empty: { const: 'unfiltered', description: 'an empty text narrows nothing, as though it were not sent' },
              },
            },
          },
        }, { enum: ['equal', 'keyed', 'hook'] }),
      },
      sort: { type: 'array', items: identifier, minItems: 1 },
      parent: {
        type: 'object',
        additionalProperties: false,
        required: ['resource', 'column'],
        description: 'the stored resource whose object (by the path\'s {id}) the listed rows belong to, and the column naming it',
        properties: { resource: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' }, column: identifier },
      },
      held_nowhere: { type: 'string', minLength: 10, description: 'the 403 message for a user token holding the scope on no account' },
      fields: { type: 'array', items: identifier, minItems: 1 },
      emits: { type: 'string', pattern: '^[a-z][a-z_]*(\\.[a-z][a-z_]*)+$' },
      unique: {
        type: 'object',
        minProperties: 1,
        propertyNames: identifier,
        description: 'a unique constraint (or index) of the table, by name -> the error the insert breaking it answers',
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          required: ['message', 'param'],
          properties: {
            status: { enum: [400, 409], description: 'default 409' },
            type: { ...identifier, description: 'the error type; default conflict' },
            message: { type: 'string', minLength: 10, description: '{field} is the value written for that body field' },
            param: identifier,
          },
        },
      },
      hook: nameOr({
        type: 'object',
        additionalProperties: false,
        required: ['code', 'does'],
        description: 'a hook in a module of the area\'s (one serving several operations, or several operations\' hooks kept together): the code (typed against each operation\'s hook), and what it does',
        properties: { code: codeName, does: { type: 'string', minLength: 10 } },
      }, { type: 'string', minLength: 10 }),
      cascade: {
        type: 'array',
        minItems: 1,
        description: 'rows of other tables deleted with the row, before it: those whose column names it (soft-deleted when a stored resource of that table soft-deletes)',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['table', 'column'],
          properties: { table: identifier, column: identifier },
        },
      },
      own: {
        type: 'object',
        additionalProperties: false,
        required: ['user'],
        properties: {
          user: identifier,
          refused: { type: 'string', minLength: 10, description: 'the 403 message for the row\'s user on an account they cannot see' },
          only: { const: true },
        },
      },
      owner: {
        type: 'object',
        additionalProperties: false,
        required: ['column'],
        description: 'the column naming the row\'s owner: an account (reached with the scopes on it) or a user (by their own user token)',
        properties: {
          column: identifier,
          query: { ...identifier, description: 'list: the query parameter naming the one owner listed (else the caller\'s own)' },
        },
      },
      find: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'does'],
        description: 'how the row is found when the path id is not simply the row\'s (code: a runtime/plain/hooks.ts Finder), and in words',
        properties: { code: codeName, does: { type: 'string', minLength: 10 } },
      },
      fill: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'fields'],
        properties: {
          code: codeName,
          query: { type: 'array', items: identifier, minItems: 1 },
          fields: { type: 'array', items: identifier, minItems: 1 },
        },
      },
    },
  },
};
