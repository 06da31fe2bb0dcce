// Spec field types -> JSON Schema, in two modes:
// - "input": for request validators; refs are inlined, `required` comes from the fields, unknown keys refused.
// - "output": for OpenAPI documents; refs point at components, every response field is present.
import type { ApiSpec, FieldSpec } from './spec-types.js';
import { rangeOf } from './input-range.js';
import { LAST_INSTANT_MS } from '../runtime/instant.js';

export type Mode = 'input' | 'output';
export type JsonSchema = Record<string, unknown>;

const METADATA: JsonSchema = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 40 },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
};

const LAST_EPOCH_SECOND = Math.floor(LAST_INSTANT_MS / 1000);

function withNull(schema: JsonSchema, nullable: boolean | undefined): JsonSchema {
  if (!nullable) return schema;
  if (schema.$ref) return { anyOf: [schema, { type: 'null' }] };
  if (Array.isArray(schema.enum)) return { ...schema, type: [schema.type, 'null'], enum: [...schema.enum, null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

export function fieldSchema(spec: ApiSpec, f: FieldSpec, mode: Mode): JsonSchema {
  let s: JsonSchema;
  switch (f.type) {
    case 'string':
      s = { type: 'string' };
      if (f.min_length !== undefined) s.minLength = f.min_length;
      if (f.max_length !== undefined) s.maxLength = f.max_length;
      if (f.pattern) s.pattern = f.pattern;
      break;
    case 'integer':
    case 'number': {
      s = { type: f.type };
      const { min, max } = rangeOf(f);
      if (min !== undefined) s.minimum = min;
      if (max !== undefined) s.maximum = max;
      break;
    }
    case 'boolean':
      s = { type: 'boolean' };
      break;
    case 'timestamp':
      s = { type: 'string', format: 'date-time' };
      break;
    case 'epoch_timestamp':
      // Epoch seconds up to the last instant the API stores (9999-12-31T23:59:59Z), as for ISO 8601 strings.
      s = { anyOf: [{ type: 'integer', minimum: 0, maximum: LAST_EPOCH_SECOND }, { type: 'string', format: 'date-time' }] };
      break;
    case 'date':
      s = { type: 'string', format: 'date' };
      break;
    case 'email':
      s = { type: 'string', format: 'email', maxLength: 254 };
      break;
    case 'url':
      s = { type: 'string', format: 'uri', maxLength: 2048 };
      break;
    case 'any':
      s = {};
      break;
    case 'metadata':
      s = METADATA;
      break;
    case 'money':
      s = refSchema(spec, 'Money', mode);
      break;
    case 'id': {
      const prefix = f.resource ? (spec.resources[f.resource] ?? spec.components[f.resource])?.prefix : undefined;
      s = { type: 'string', maxLength: 64 };
      if (prefix) s.pattern = `^${prefix}[A-Za-z0-9]+$`;
      break;
    }
    case 'enum':
      s = { type: 'string', enum: f.values };
      break;
    case 'object':
      s = objectSchema(spec, f.fields ?? {}, mode);
      break;
    case 'array':
      s = { type: 'array', items: fieldSchema(spec, f.items!, mode) };
      if (f.max_items !== undefined) s.maxItems = f.max_items;
      break;
    case 'map':
      s = { type: 'object', additionalProperties: fieldSchema(spec, f.of!, mode) };
      break;
    case 'ref':
      s = refSchema(spec, f.ref!, mode);
      break;
  }
  if (f.description && mode === 'output') s = { ...s, description: f.description };
  if (f.default !== undefined && mode === 'input') s = { ...s, default: f.default };
  s = withNull(s, f.nullable);
  // Still served, documented as deprecated (generator/deprecated-fields.ts); an annotation validators ignore.
  return f.deprecated ? { ...s, deprecated: true } : s;
}

function refSchema(spec: ApiSpec, name: string, mode: Mode): JsonSchema {
  if (mode === 'output') return { $ref: `#/components/schemas/${name}` };
  const target = spec.resources[name] ?? spec.components[name];
  return objectSchema(spec, target.fields, mode);
}

export function objectSchema(spec: ApiSpec, fields: Record<string, FieldSpec>, mode: Mode): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(fields)) {
    properties[name] = fieldSchema(spec, f, mode);
    // An output field marked required: false may be omitted (an ad's copy without translations has no language).
    if ((mode === 'output' && f.required !== false) || f.required) required.push(name);
  }
  const s: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length) s.required = required;
  return s;
}
