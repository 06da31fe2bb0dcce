// What one instruction changes, as the diff tool and the changelog show it: breaking or not, the field, from and to,
// in words; and which operations a schema's change reaches (those whose responses carry the schema).
import { kindOf, type Instruction, type InstructionKind } from './instructions.js';
import type { ApiSpec, FieldSpec, OperationSpec } from './spec-types.js';
import type { Change } from '../runtime/docs/changelog-data.js';

export const BREAKING: Record<InstructionKind, boolean> = {
  field_added: false, field_removed: true, field_renamed: true, enum_value_added: true, values_renamed: true,
  transformer: true, endpoint_added: false, request_field_rejected: true, request_field_added: false,
  request_field_renamed: true, request_field_required: true, request_values_renamed: true, epoch_timestamps_accepted: true,
  endpoint_moved: true, endpoint_gone: true, money_as_decimal: true, request_transformer: true, status_changed: true,
  list_field_removed: true, field_hidden: true,
};

type Body = Record<string, any>;
type Shape = Pick<Change, 'field' | 'in' | 'from' | 'to' | 'description'>;

const olderValues = (b: Body): string[] => Object.keys(b.map ?? {});
const newerValues = (b: Body): string[] => Object.values(b.map ?? {}).flatMap((v) => [v].flat().filter((x): x is string => typeof x === 'string'));

/** The change an instruction makes, as field, from and to, and in words. */
export function shapesOf(i: Instruction, op: OperationSpec | undefined): Shape[] {
  const kind = kindOf(i);
  const b = (i as Record<string, Body>)[kind];
  const input = (b.in ?? 'body') as 'body' | 'query';
  switch (kind) {
    case 'field_added':
      return [{ field: b.field, in: 'response', from: null, to: 'present', description: `${b.field}: added` }];
    case 'field_removed':
      return [{ field: b.field, in: 'response', from: 'present', to: null,
        description: `${b.field}: removed${b.copy_from ? ` (older versions show ${b.copy_from} under this name)` : ''}` }];
    case 'field_renamed':
      return [{ field: b.to, in: 'response', from: b.from, to: b.to, description: `${b.from}: renamed to ${b.to}` }];
    case 'enum_value_added':
      return [{ field: b.field, in: 'response', from: b.fallback, to: b.value,
        description: `${b.field}: new value ${b.value} (older versions show ${JSON.stringify(b.fallback)})` }];
    case 'values_renamed':
      return [{ field: b.field, in: 'response', from: Object.values(b.map), to: Object.keys(b.map),
        description: `${b.field}: values renamed (${Object.entries(b.map).map(([n, o]) => `${o} -> ${n}`).join(', ')})` }];
    case 'transformer':
      return [{ field: null, in: 'response', from: b.was ?? null, to: null, description: b.description }];
    case 'money_as_decimal':
      return (b.fields as string[]).map((field) => ({ field, in: 'response' as const, from: 'decimal number in the major unit',
        to: 'money object', description: `${field}: a money object (older versions: a decimal number in the major unit)` }));
    case 'endpoint_added':
      return [{ field: null, in: null, from: null, to: `${op?.method} ${op?.path}`, description: 'endpoint added' }];
    case 'endpoint_moved':
      return [{ field: null, in: null, from: b.from, to: op?.path, description: `moved from ${b.from} to ${op?.path}` }];
    case 'endpoint_gone':
      return [{ field: null, in: null, from: `${op?.method} ${op?.path}`, to: '410 gone', description: 'retired: answers 410 gone' }];
    case 'field_hidden':
      return [{ field: b.field, in: 'response', from: 'shown', to: null, description: `${b.field}: no longer shown` }];
    case 'list_field_removed':
      return [{ field: b.field, in: 'response', from: 'in every page', to: null, description: `pages: ${b.field} no longer carried` }];
    case 'status_changed':
      return [{ field: null, in: null, from: b.was, to: op?.response.status, description: `success status ${b.was} -> ${op?.response.status}` }];
    case 'epoch_timestamps_accepted':
      return [{ field: null, in: null, from: 'ISO 8601 or epoch seconds', to: 'ISO 8601',
        description: 'timestamp inputs: ISO 8601 only (epoch seconds no longer accepted)' }];
    case 'request_field_rejected':
      return [{ field: b.field, in: input, from: 'accepted', to: 'refused', description: `${input} ${b.field}: no longer accepted` }];
    case 'request_field_added':
      return [{ field: b.field, in: input, from: null, to: 'accepted', description: `${input} ${b.field}: newly accepted` }];
    case 'request_field_renamed':
      return [{ field: b.to, in: input, from: b.from, to: b.to, description: `${input} ${b.from}: renamed to ${b.to}` }];
    case 'request_field_required':
      return [{ field: b.field, in: 'body', from: 'optional', to: 'required',
        description: `body ${b.field}: now required (older versions defaulted it to ${JSON.stringify(b.default)})` }];
    case 'request_values_renamed': {
      const renamed = Object.entries(b.map).map(([o, n]) => `${o} -> ${[n].flat().join('|') || '(nothing)'}`).join(', ');
      const wasValues = b.was && typeof b.was === 'object' && b.was.values ? [...b.was.values, ...(b.was.nullable ? [null] : [])] : null;
      const was = wasValues ? `older values ${wasValues.map((v) => v ?? 'null').join(', ')}` : '';
      return [{ field: b.field, in: input, from: wasValues ?? olderValues(b), to: newerValues(b),
        description: `${input} ${b.field}: ${[renamed && `values renamed (${renamed})`, was].filter(Boolean).join('; ')}` }];
    }
    case 'request_transformer': {
      const fields = Object.entries(b.was ?? {}).flatMap(([part, f]) => Object.keys(f as object).map((k) => `${part} ${k}`));
      return [{ field: null, in: 'body', from: b.was ?? null, to: null,
        description: `${b.description}${fields.length ? ` (older inputs: ${fields.join(', ')})` : ''}` }];
    }
  }
}

/** Operations whose responses contain the schema, directly or nested. */
export function operationsUsing(spec: ApiSpec, schema: string): string[] {
  const all = { ...spec.components, ...spec.resources };
  const contains = (f: FieldSpec, seen: Set<string>): boolean => {
    if (f.type === 'ref') return f.ref === schema || (!seen.has(f.ref!) && seen.add(f.ref!) && Object.values(all[f.ref!].fields).some((g) => contains(g, seen)));
    return [f.items, f.of, ...Object.values(f.fields ?? {})].some((g) => g && contains(g, seen));
  };
  return spec.operations.filter((op: OperationSpec) => {
    const r = op.response;
    const top = r.deleted ? 'Deleted' : r.list?.of ?? r.type;
    if (top) return contains({ type: 'ref', ref: top }, new Set());
    return Object.values(r.fields ?? {}).some((f) => contains(f, new Set()));
  }).map((op) => op.id);
}
