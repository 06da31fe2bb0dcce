// Turns ajv's raw findings against the meta-schema into one sentence per problem, with a position.
import type { ErrorObject } from 'ajv';
import { locate, type SourceFile } from './spec-source.js';
import { nearestName } from './nearest-name.js';

/** "; did you mean `method`?" when the unknown key is a typo of a key the schema knows. */
function didYouMean(key: string, schema: unknown): string {
  const known = Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const near = nearestName(key, known);
  return near ? `; did you mean "${near}"?` : '';
}

const PATTERN_MEANING: Record<string, string> = {
  '^[a-z][a-z0-9_]*$': 'a snake_case name',
  '^[A-Z][A-Za-z0-9]*$': 'a PascalCase type name such as Account',
  '^[a-z]+_$': 'a lowercase prefix ending in an underscore, such as biz_',
  '^[a-z][a-zA-Z0-9]*$': 'a camelCase operation id such as listAccounts',
  '^[a-z_]+/[a-zA-Z0-9]+$': 'area/operationId, such as accounts/listAccounts',
  '^(path|query|body)\\.[a-z_]+$': 'where the account id is read from, such as path.id or body.account_id',
  '^(/[a-z0-9_]+|/\\{[a-z_]+\\})+$': 'a path of lowercase segments and {params}, such as /accounts/{id}',
  '^[a-z][a-z0-9_]*(\\[\\])?$': 'a snake_case name (ending in [] for an array query parameter)',
};

function pathOf(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function valueAt(data: unknown, path: (string | number)[]): unknown {
  let v: unknown = data;
  for (const p of path) v = (v as Record<string | number, unknown> | undefined)?.[p];
  return v;
}

function describe(path: (string | number)[]): string {
  return path.length ? path.join('.') : 'the file';
}

const SHORTHAND = '#/$defs/shorthand/';
const FIELD_OBJECT = '#/anyOf/1/';

/**
 * The instance path of the field a "field as an object" error belongs to: ajv reports the error at the
 * offending key (e.g. fields.x.type), so step back over the properties/items the schema path descends into.
 */
function fieldOwner(path: (string | number)[], schemaPath: string): (string | number)[] {
  const steps = schemaPath.slice(FIELD_OBJECT.length).split('/');
  let depth = 0;
  for (let i = 0; i < steps.length; i++) {
    if (steps[i] === 'properties') { depth++; i++; } else if (steps[i] === 'items') depth++;
  }
  return path.slice(0, path.length - depth);
}

const isMapping = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A field is either a shorthand string or a mapping with "type" (an anyOf); keeps only the branch the author
 * evidently meant, and drops ajv's summary errors. A value that is neither gets the shorthand's one sentence.
 */
function relevant(errors: ErrorObject[], data: unknown): ErrorObject[] {
  return errors.filter((e) => {
    // A key's name is explained by the pattern it failed (ajv reports that as its own error, with propertyName).
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'propertyNames') return false;
    const path = pathOf(e.instancePath);
    if (e.schemaPath.startsWith(SHORTHAND) && isMapping(valueAt(data, path))) return false;
    if (e.schemaPath.startsWith(FIELD_OBJECT) && !isMapping(valueAt(data, fieldOwner(path, e.schemaPath)))) return false;
    if (e.schemaPath.includes('/oneOf/') && e.keyword === 'required') return false;
    return true;
  });
}

const typeWord = (type: string) => (type === 'object' ? 'a mapping' : type === 'array' ? 'a list' : `a ${type}`);
const knownKeys = (schema: unknown) => Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});

const NOT_A_TYPE = 'which is not a type; use string, integer, number, boolean, timestamp, date, email, url, any, money or metadata (add ? for nullable), or a mapping with "type"';

export function explainErrors(source: SourceFile, errors: ErrorObject[]): string[] {
  const out = new Set<string>();
  for (const e of relevant(errors, source.data)) {
    const path = pathOf(e.instancePath);
    const where = describe(path);
    const p = e.params as Record<string, unknown>;
    let message: string;
    let at = locate(source, path);
    switch (e.keyword) {
      case 'required':
        message = `${where} needs "${String(p.missingProperty)}"`;
        break;
      case 'additionalProperties':
        at = locate(source, [...path, String(p.additionalProperty)], true);
        message = `${where} has an unknown key "${String(p.additionalProperty)}"${didYouMean(String(p.additionalProperty), e.parentSchema)}`;
        break;
      case 'enum':
        message = `${where} is ${JSON.stringify(valueAt(source.data, path))}, but must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        break;
      case 'pattern': {
        const meaning = PATTERN_MEANING[String(p.pattern)] ?? `of the form ${String(p.pattern)}`;
        if (e.propertyName !== undefined) {
          at = locate(source, [...path, e.propertyName], true);
          message = `the key "${e.propertyName}" in ${where} is not a valid name; it must be ${meaning}`;
          break;
        }
        const value = JSON.stringify(valueAt(source.data, path));
        message = e.schemaPath.startsWith(SHORTHAND) ? `${where} is ${value}, ${NOT_A_TYPE}` : `${where} is ${value}, but must be ${meaning}`;
        break;
      }
      case 'type':
        message = e.schemaPath.startsWith(SHORTHAND)
          ? `${where} is ${JSON.stringify(valueAt(source.data, path))}, ${NOT_A_TYPE}`
          : `${where} must be ${String(p.type).split(',').map(typeWord).join(' or ')}`;
        break;
      case 'minProperties':
      case 'maxProperties':
        message = p.limit === 1 && e.keyword === 'maxProperties'
          ? `${where} must have only one of ${knownKeys(e.parentSchema).join(', ')}`
          : `${where} must have ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${String(p.limit)} key${p.limit === 1 ? '' : 's'}`;
        break;
      case 'oneOf':
        message = `${where} must have exactly one of type, list, deleted or fields`;
        break;
      case 'format':
        message = `${where} must be a ${String(p.format)} (YYYY-MM-DD)`;
        break;
      case 'minimum':
      case 'maximum':
        message = `${where} is ${JSON.stringify(valueAt(source.data, path))}, but must be at ${e.keyword === 'minimum' ? 'least' : 'most'} ${String(p.limit)}`;
        break;
      case 'minItems':
        message = `${where} must not be empty`;
        break;
      case 'minLength':
        message = `${where} must not be empty`;
        break;
      default:
        message = `${where} ${e.message ?? 'is invalid'}`;
    }
    out.add(`${at}: ${message}`);
  }
  return [...out];
}
