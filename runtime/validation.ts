// Precompiled ajv validators (generated/validators-*.js) and the 400 that names what failed.
import { ApiError } from './errors.js';
import { hasNul, isStorableText } from './storable-text.js';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ValidationIssue[] | null;
}

export type InputPart = 'path' | 'query' | 'body';

function paramName(part: InputPart, issue: ValidationIssue): string {
  const segments = issue.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (issue.keyword === 'required') segments.push(String(issue.params.missingProperty));
  if (issue.keyword === 'additionalProperties') segments.push(String(issue.params.additionalProperty));
  if (part === 'body') return segments.join('.');
  return segments.map((s, i) => (i === 0 ? s : `[${s}]`)).join('');
}

function describe(issue: ValidationIssue): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required': return 'is required';
    case 'additionalProperties': return 'is not a recognised parameter';
    case 'type': return `must be ${/^[aeiou]/.test(String(p.type)) ? 'an' : 'a'} ${String(p.type).replace(',', ' or ')}`;
    case 'enum': return `must be one of: ${(p.allowedValues as unknown[]).filter((v) => v !== null).join(', ')}`;
    case 'format': return p.format === 'date-time'
      ? 'must be an ISO 8601 timestamp with time and offset, such as 2026-01-31T12:00:00Z'
      : `must be a valid ${String(p.format)}`;
    case 'pattern': return 'is not in the expected format';
    case 'minimum': return `must be at least ${String(p.limit)}`;
    case 'maximum': return `must be at most ${String(p.limit)}`;
    case 'minLength': return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength': return `must be at most ${String(p.limit)} characters`;
    case 'maxItems': return `must have at most ${String(p.limit)} items`;
    case 'maxProperties': return `must have at most ${String(p.limit)} keys`;
    case 'propertyNames': return 'has a key that is too long';
    default: return issue.message ?? 'is invalid';
  }
}

const PART_WORD: Record<InputPart, string> = { path: 'path parameter', query: 'query parameter', body: 'body field' };

export function validationError(part: InputPart, issues: ValidationIssue[]): ApiError {
  const issue = issues[0];
  const param = paramName(part, issue);
  if (!param) return new ApiError(400, 'invalid_request', `The ${part === 'body' ? 'body' : part} ${describe(issue)}`);
  const noun = issue.keyword === 'additionalProperties' ? `Unknown ${PART_WORD[part]}` : `The ${PART_WORD[part]}`;
  return new ApiError(400, 'invalid_request', `${noun} '${param}' ${describe(issue)}`, param);
}

function joinParam(part: InputPart, segments: string[]): string {
  return part === 'body' ? segments.join('.') : segments.map((s, i) => (i === 0 ? s : `[${s}]`)).join('');
}

interface PathNode { key: string; parent: PathNode | null }

function segmentsOf(node: PathNode | null): string[] {
  const out: string[] = [];
  for (let n = node; n; n = n.parent) out.unshift(n.key);
  return out;
}

/**
 * Refuses, as a 400 naming the field, any string (value or key) the database could not store, and any number that
 * is not finite. The validators refuse Infinity where a field is a number (strictNumbers), but not in fields typed
 * `any`, nor where they coerce a query value: ajv turns '1e999' into Infinity and then skips its range checks.
 */
function checkStorable(part: InputPart, data: unknown): void {
  // Iterative, with linked paths: a field typed `any` may hold arbitrarily deep JSON.
  const pending: [unknown, PathNode | null][] = [[data, null]];
  while (pending.length) {
    const [value, at] = pending.pop()!;
    if (typeof value === 'string') {
      if (isStorableText(value)) continue;
      const param = joinParam(part, segmentsOf(at));
      const what = hasNul(value) ? 'must not contain the NUL character (\\u0000)' : 'is not valid Unicode (it has an unpaired surrogate)';
      throw new ApiError(400, 'invalid_request', `The ${PART_WORD[part]} '${param}' ${what}`, param);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const param = joinParam(part, segmentsOf(at));
      throw new ApiError(400, 'invalid_request', `The ${PART_WORD[part]} '${param}' must be a finite number`, param || undefined);
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) {
        const param = joinParam(part, segmentsOf(at));
        const where = param ? `The ${PART_WORD[part]} '${param}'` : `The ${part === 'body' ? 'body' : part}`;
        throw new ApiError(400, 'invalid_request', `${where} has a key with a NUL character or an unpaired surrogate`, param || undefined);
      }
      pending.push([item, { key, parent: at }]);
    }
  }
}

export function validate(part: InputPart, validator: CompiledValidator, data: unknown): void {
  if (!validator(data)) throw validationError(part, validator.errors ?? []);
  checkStorable(part, data);
}
