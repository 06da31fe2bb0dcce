// Sample data for a test event (POST /webhooks/{id}/test): the event's object in its newest shape, made from the
// head version's OpenAPI schema of it, so that it is rendered at a subscription's pin like any event's data and
// follows every field the spec adds. Values are made up and recognisable: ids are "<prefix>test", texts "test",
// numbers 0, flags false, lists empty, nullable fields null, times the moment of the test.
import { api } from '../../runtime/api-definition.js';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { headVersion } from '../../runtime/versions.js';

type Schema = Record<string, any>;

const documents = new Map<string, { components: { schemas: Record<string, Schema> } }>();
function headSchemas(): Record<string, Schema> {
  const version = headVersion();
  let doc = documents.get(version);
  if (!doc) documents.set(version, doc = JSON.parse(readOpenApiDocument(api().documentsDir, version)));
  return doc!.components.schemas;
}

// Objects nest (a payment's user, a membership's plan); past this depth an object is left empty.
const MAX_DEPTH = 8;

function sample(schema: Schema, schemas: Record<string, Schema>, name: string, now: string, depth: number): unknown {
  if (schema.$ref) return sample(schemas[String(schema.$ref).split('/').pop()!] ?? {}, schemas, name, now, depth);
  if ('const' in schema) return schema.const;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) {
    if (choices.some((c: Schema) => c.type === 'null')) return null;
    return sample(choices[0], schemas, name, now, depth);
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => sample(s, schemas, name, now, depth)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('null')) return null;
  if (schema.enum) return schema.enum[0];
  switch (types[0]) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return out;
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
        out[key] = sample(property, schemas, key, now, depth + 1);
      }
      return out;
    }
    case 'array': return [];
    case 'integer': case 'number': return 0;
    case 'boolean': return false;
    case 'string': return sampleText(schema, name, now);
    default: return null;
  }
}

function sampleText(schema: Schema, name: string, now: string): string {
  const prefix = /^\^([a-z_]+_)\[/.exec(String(schema.pattern ?? ''))?.[1];
  if (prefix) return `${prefix}test`;
  if (schema.format === 'date-time') return now;
  if (schema.format === 'date') return now.slice(0, 10);
  if (schema.format === 'uri') return 'https://example.com/test';
  if (name === 'currency') return 'usd';
  return 'test';
}

/** The sample object of `schema` (a resource's name), with `accountId` as its account_id when it has one. */
export function sampleEventData(schema: string, accountId: string, now = new Date()): Record<string, unknown> {
  const schemas = headSchemas();
  const data = sample(schemas[schema] ?? { type: 'object' }, schemas, '', now.toISOString(), 0) as Record<string, unknown>;
  if ('account_id' in data) data.account_id = accountId;
  return data;
}
