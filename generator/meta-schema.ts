// The spec format, as JSON Schema. Each YAML file under spec/ is validated against one of these;
// explain-errors.ts turns ajv's findings into sentences with file, line and column.
import { tableDefs } from './plain-meta-schema.js';

const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };
const typeName = { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' };
/** A deprecation's sunset, an operation's or a field's: when it stops being served (generator/sunset-evidence.ts). */
const sunset = { type: 'string', format: 'date' };

const defs = {
  shorthand: {
    type: 'string',
    pattern:
      '^(string|integer|number|boolean|timestamp|date|email|url|any|money|metadata)\\??$',
    description: 'a scalar type name, with a trailing ? for nullable',
  },
  field: {
    anyOf: [
      { $ref: '#/$defs/shorthand' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: {
            enum: ['string', 'integer', 'number', 'boolean', 'timestamp', 'date', 'email', 'url', 'any',
              'money', 'metadata', 'id', 'enum', 'object', 'array', 'map', 'ref'],
          },
          nullable: { type: 'boolean' },
          description: { type: 'string' },
          resource: typeName,
          values: { type: 'array', items: { type: 'string' }, minItems: 1 },
          values_from: { enum: ['events'], description: 'an enum of every event name the areas declare' },
          ref: typeName,
          fields: { $ref: '#/$defs/fields' },
          items: { $ref: '#/$defs/field' },
          of: { $ref: '#/$defs/field' },
          required: { type: 'boolean' },
          default: {},
          min: { type: 'number' },
          max: { type: 'number' },
          storage: { enum: ['int2', 'int4', 'int8'], description: 'an integer input\'s column type: its range bounds the input' },
          min_length: { type: 'integer', minimum: 0 },
          max_length: { type: 'integer', minimum: 0 },
          max_items: { type: 'integer', minimum: 0 },
          pattern: { type: 'string' },
          internal: { type: 'boolean' },
          secret: { type: 'boolean', description: 'path parameters only: a bearer secret, written [redacted] in request logs' },
          deprecated: {
            type: 'object',
            additionalProperties: false,
            required: ['since', 'successor'],
            description: 'a resource\'s own field, or an operation\'s query or body field, kept beside its successor (generator/deprecated-fields.ts)',
            properties: {
              since: { type: 'string', format: 'date' },
              successor: { anyOf: [identifier, { type: 'null' }] },
              sunset,
              note: { type: 'string', minLength: 1 },
            },
          },
          aliases: {
            type: 'object',
            additionalProperties: false,
            description: 'path parameters only: other names of the row (me: the user behind the credential; lookup: a unique column)',
            properties: {
              me: { type: 'boolean' },
              lookup: {
                type: 'object',
                additionalProperties: false,
                required: ['table', 'column'],
                properties: { table: identifier, column: identifier, ignore_case: { type: 'boolean' } },
              },
            },
          },
        },
        allOf: [
          { if: { properties: { type: { const: 'enum' } }, not: { required: ['values_from'] } }, then: { required: ['values'] } },
          { if: { properties: { type: { const: 'ref' } } }, then: { required: ['ref'] } },
          { if: { properties: { type: { const: 'array' } } }, then: { required: ['items'] } },
          { if: { properties: { type: { const: 'object' } } }, then: { required: ['fields'] } },
          { if: { properties: { type: { const: 'map' } } }, then: { required: ['of'] } },
          { if: { required: ['storage'] }, then: { properties: { type: { enum: ['integer'] } } } },
        ],
      },
    ],
  },
  fields: {
    type: 'object',
    propertyNames: { pattern: '^[a-z][a-z0-9_]*(\\[\\])?$' },
    additionalProperties: { $ref: '#/$defs/field' },
  },
  resource: {
    type: 'object',
    additionalProperties: false,
    required: ['fields'],
    properties: {
      prefix: { type: 'string', pattern: '^[a-z]+_$' },
      object: identifier,
      description: { type: 'string' },
      fields: { $ref: '#/$defs/fields' },
      table: { $ref: '#/$defs/table' },
    },
  },
  ...tableDefs,
  operation: {
    type: 'object',
    additionalProperties: false,
    required: ['method', 'path', 'summary'],
    if: { not: { required: ['gone'] } },
    then: { required: ['response'] },
    properties: {
      gone: {
        type: 'object',
        additionalProperties: false,
        required: ['since'],
        properties: { since: { type: 'string', format: 'date' }, successor: { type: 'string', pattern: '^/' } },
      },
      method: { enum: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] },
      path: { type: 'string', pattern: '^(/[a-z0-9_]+|/\\{[a-z_]+\\})+$' },
      summary: { type: 'string', minLength: 1 },
      description: { type: 'string' },
      handler: { type: 'string', pattern: '^[a-z_]+/[a-zA-Z0-9]+$' },
      auth: { type: 'array', items: { enum: ['api_key', 'user_token', 'client'] }, minItems: 1 },
      scopes: { type: 'array', items: { type: 'string' } },
      account: { type: 'string', pattern: '^(path|query|body)\\.[a-z_]+$' },
      idempotent: { type: 'boolean' },
      path_params: { $ref: '#/$defs/fields' },
      query: { $ref: '#/$defs/fields' },
      body: { $ref: '#/$defs/fields' },
      response: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'integer', minimum: 200, maximum: 299 },
          type: typeName,
          deleted: typeName,
          fields: { $ref: '#/$defs/fields' },
          list: {
            type: 'object',
            additionalProperties: false,
            required: ['of', 'default_page_size', 'max_page_size'],
            properties: {
              of: typeName,
              default_page_size: { type: 'integer', minimum: 1 },
              max_page_size: { type: 'integer', minimum: 1 },
              fields: { $ref: '#/$defs/fields' },
            },
          },
        },
        oneOf: [
          { required: ['type'] }, { required: ['list'] }, { required: ['deleted'] }, { required: ['fields'] },
        ],
      },
      errors: { type: 'array', items: { enum: [400, 401, 403, 404, 409, 410, 422, 429] } },
      deprecated: {
        type: 'object',
        additionalProperties: false,
        properties: { successor: { type: 'string' }, sunset },
      },
      plain: { $ref: '#/$defs/plain' },
      // Another operation whose handler serves this one (a deprecated route kept for its callers); no file of its own.
      same_as: { type: 'string', pattern: '^[a-z][a-zA-Z0-9]*$' },
    },
  },
};

export const areaFileSchema = {
  $id: 'area',
  type: 'object',
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    events: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z_]*(\\.[a-z][a-z_]*)+$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['schema', 'description'],
        properties: { schema: typeName, description: { type: 'string', minLength: 1 } },
      },
    },
    state_machines: {
      type: 'object',
      propertyNames: typeName,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'transitions'],
        properties: {
          field: identifier,
          description: { type: 'string' },
          // Timed steps the machine's handlers follow, as data (e.g. a dunning schedule), emitted into spec-data.
          schedules: {
            type: 'object',
            propertyNames: identifier,
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['days', 'description'],
              properties: {
                days: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1 },
                description: { type: 'string' },
              },
            },
          },
          transitions: {
            type: 'object',
            propertyNames: identifier,
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['from', 'to'],
              properties: {
                from: { type: 'array', items: identifier, minItems: 1 },
                to: identifier,
                description: { type: 'string' },
              },
            },
          },
        },
      },
    },
    resources: { type: 'object', propertyNames: typeName, additionalProperties: { $ref: '#/$defs/resource' } },
    operations: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-zA-Z0-9]*$' },
      additionalProperties: { $ref: '#/$defs/operation' },
    },
  },
  $defs: defs,
};

export const apiFileSchema = {
  $id: 'api',
  type: 'object',
  additionalProperties: false,
  required: ['info', 'scopes', 'roles', 'user_scopes', 'errors', 'components', 'rate_limits'],
  properties: {
    info: {
      type: 'object',
      additionalProperties: false,
      required: ['title', 'version', 'base_path'],
      properties: {
        title: { type: 'string' },
        version: { type: 'string' },
        base_path: { type: 'string', pattern: '^/' },
        description: { type: 'string' },
      },
    },
    scopes: {
      type: 'object',
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['description'],
        properties: { description: { type: 'string' } },
      },
    },
    roles: {
      type: 'object',
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['description', 'scopes'],
        properties: { description: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
      },
    },
    user_scopes: { type: 'array', items: { type: 'string' } },
    errors: {
      type: 'object',
      propertyNames: identifier,
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['status', 'description'],
        properties: { status: { type: 'integer', minimum: 400, maximum: 599 }, description: { type: 'string' } },
      },
    },
    components: { type: 'object', propertyNames: typeName, additionalProperties: { $ref: '#/$defs/resource' } },
    rate_limits: {
      type: 'object',
      additionalProperties: false,
      required: ['read', 'write'],
      description: 'request budgets per credential: read (GET) and write (every other method)',
      properties: Object.fromEntries(['read', 'write'].map((budget) => [budget, {
        type: 'object', additionalProperties: false, required: ['requests', 'per_seconds'],
        properties: {
          requests: { type: 'integer', minimum: 1 },
          per_seconds: { type: 'integer', minimum: 1 },
          description: { type: 'string' },
        },
      }])),
    },
    webhook_delivery: {
      type: 'object',
      additionalProperties: false,
      required: ['timeout_seconds', 'retry_schedule_seconds', 'jitter', 'retry_after_max_seconds', 'disable_after_failing_seconds'],
      description: 'how webhook deliveries are retried, and when a failing subscription is disabled (emitted into spec-data)',
      properties: {
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 60 },
        retry_schedule_seconds: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 } },
        jitter: { type: 'number', minimum: 0, maximum: 0.5 },
        retry_after_max_seconds: { type: 'integer', minimum: 1 },
        disable_after_failing_seconds: { type: 'integer', minimum: 1 },
        description: { type: 'string' },
      },
    },
  },
  $defs: defs,
};

const schemaName = { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' };
const opName = { type: 'string', pattern: '^[a-z][a-zA-Z0-9]*$' };
const fieldPath = { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$' };
const rawField = { anyOf: [{ type: 'string' }, { type: 'object' }] };
/** what a hand-written transformer changes, in words for people reading `npm run diff` (its name is internal) */
const transformerDescription = { type: 'string', minLength: 10, description: 'what the older shape was, in words' };
/** A version change's name: its file's name, kebab-case (payouts-status-v2). */
export const CHANGE_NAME = '^[a-z][a-z0-9]*(-[a-z0-9]+)*$';
/** The hand-written converter's file beside the change, without `.ts`: the change's own name unless it has several
 * (payouts-status-v2.request). */
const converterName = { type: 'string', pattern: '^[a-z][a-z0-9]*(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)?$' };
const instruction = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object', additionalProperties: false, required, properties,
});

const instructionKinds: Record<string, unknown> = {
  field_added: instruction(['schema', 'field'], { schema: schemaName, field: fieldPath }),
  field_removed: instruction(['schema', 'field', 'was'], {
    schema: schemaName, field: fieldPath, was: rawField, copy_from: fieldPath, default: {},
  }),
  field_hidden: instruction(['schema', 'field'], { schema: schemaName, field: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } }),
  field_renamed: instruction(['schema', 'from', 'to'], { schema: schemaName, from: fieldPath, to: fieldPath }),
  enum_value_added: instruction(['schema', 'field', 'value', 'fallback'], {
    schema: schemaName, field: fieldPath, value: { type: 'string' }, fallback: { type: ['string', 'null'] },
  }),
  values_renamed: instruction(['schema', 'field', 'map'], {
    schema: schemaName, field: fieldPath, map: { type: 'object', additionalProperties: { type: 'string' } },
  }),
  transformer: instruction(['schema', 'description'], {
    schema: schemaName, converter: converterName, description: transformerDescription,
    was: { type: 'object', propertyNames: { pattern: '^[a-z][a-z0-9_.]*$' }, additionalProperties: { anyOf: [rawField, { type: 'null' }] } },
  }),
  endpoint_added: instruction(['operation'], { operation: opName }),
  request_field_rejected: instruction(['operation', 'field'], {
    operation: opName, field: fieldPath, in: { enum: ['body', 'query'] }, was: rawField,
  }),
  list_field_removed: instruction(['operation', 'field'], { operation: opName, field: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } }),
  request_field_added: instruction(['operation', 'field'], { operation: opName, field: fieldPath, in: { enum: ['body', 'query'] } }),
  request_field_renamed: instruction(['operation', 'from', 'to'], {
    operation: opName, from: fieldPath, to: fieldPath, in: { enum: ['body', 'query'] },
  }),
  request_field_required: instruction(['operation', 'field', 'default'], { operation: opName, field: fieldPath, default: {} }),
  epoch_timestamps_accepted: instruction(['operation'], { operation: opName }),
  endpoint_gone: instruction(['operation'], { operation: opName }),
  endpoint_moved: instruction(['operation', 'from'], {
    operation: opName,
    from: { type: 'string', pattern: '^(/[a-z0-9_]+|/\\{[a-z_]+\\})+$' },
    params: { type: 'object', additionalProperties: { type: 'string' } },
  }),
  request_values_renamed: instruction(['operation', 'field', 'map'], {
    operation: opName, field: fieldPath, was: rawField, in: { enum: ['body', 'query'] },
    map: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: ['string', 'null'] }, { type: 'array', items: { type: 'string' } }] },
    },
  }),
  money_as_decimal: instruction(['schema', 'fields'], {
    schema: schemaName, fields: { type: 'array', items: fieldPath, minItems: 1 },
  }),
  request_transformer: instruction(['operation', 'description'], {
    operation: opName, converter: converterName, description: transformerDescription,
    was: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(['body', 'query'].map((part) => [part, {
        type: 'object', propertyNames: { pattern: '^[a-z][a-z0-9_.]*$' }, additionalProperties: { anyOf: [rawField, { type: 'null' }] },
      }])),
    },
  }),
  status_changed: instruction(['operation', 'was'], { operation: opName, was: { type: 'integer', minimum: 200, maximum: 299 } }),
};

/** One dated version's folder index, spec/versions/<date>/version.yaml: its description, the behaviour flags it
 * introduced and its changes, by name, newest first (each one a <name>.yaml beside it). */
export const versionFileSchema = {
  $id: 'version',
  type: 'object',
  additionalProperties: false,
  required: ['description', 'changes'],
  properties: {
    description: { type: 'string', minLength: 1 },
    flags: {
      type: 'object',
      propertyNames: identifier,
      additionalProperties: {
        type: 'object', additionalProperties: false, required: ['description'],
        properties: { description: { type: 'string' } },
      },
    },
    changes: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: CHANGE_NAME } },
  },
};

/** One change, spec/versions/<date>/<name>.yaml: its changelog text and what the version before it looked like. */
export const changeFileSchema = {
  $id: 'change',
  type: 'object',
  additionalProperties: false,
  required: ['description'],
  properties: {
    description: { type: 'string', minLength: 1 },
    pending: { type: 'boolean' },
    migration: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    flags: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' }, minItems: 1 },
    instructions: {
      type: 'array',
      items: {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        propertyNames: { enum: Object.keys(instructionKinds) },
        properties: instructionKinds,
      },
    },
  },
};
