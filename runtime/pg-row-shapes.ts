// pg's Result, reading its rows' shapes once per connection instead of once per statement, and each row with a
// function compiled for its shape.
//
// PostgreSQL describes a statement's columns on every execution it is asked to (every one, but for a prepared
// statement after its first on a connection: runtime/described-statements.ts), and pg's Result.addFields then builds
// the result's row template anew: a null-prototype object with each column added, spread into the template,
// and a type parser looked up per column. A shape is the same columns by name, type and format; it is kept per type
// registry (each pg.Client has its own), so a client's own parsers are honoured, and each registry keeps a bounded
// number of shapes. Setting a type parser anywhere forgets every shape; a registry of another kind than pg's own (a
// query's custom `types`) is read as pg reads it.
//
// A row is made by an object literal compiled for its shape, not by copying a template and storing each column by
// name: an object given many properties one store at a time becomes a dictionary in V8, and so did every row copied
// from it. For a row of 70 columns (a payment as POST /payments returns it), `node` alone: ~18 µs a row copied from
// the template against ~0.2 µs from the literal, whose rows also keep one fast shape for the views that read them.
import pg from 'pg';

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface TypeRegistry {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

type Parser = (value: string) => unknown;

interface RowShape {
  fields: readonly FieldDescription[];
  parsers: Parser[];
  binary: boolean;
  /** the row of one DataRow's values: an object literal of the columns in order, each value parsed (null kept) */
  build: (values: readonly (string | null)[]) => Record<string, unknown>;
}

/** Past this many shapes a registry keeps no more: statements' shapes are the code's, so it is not reached. */
const MAX_SHAPES = 1000;
let shapesByRegistry = new WeakMap<object, Map<string, RowShape[]>>();

type ResultState = {
  fields: readonly FieldDescription[];
  _parsers?: ((value: string) => unknown)[];
  _types?: TypeRegistry;
  _prebuiltEmptyResultObject: Record<string, null> | null;
  _shape?: RowShape;
};

function sameColumns(a: readonly FieldDescription[], b: readonly FieldDescription[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].name !== b[i].name || a[i].dataTypeID !== b[i].dataTypeID || (a[i].format ?? 'text') !== (b[i].format ?? 'text')) return false;
  }
  return true;
}

/** The row builder of `fields`: `{ "id": v[0] === null ? null : p[0](v[0]), ... }`. A repeated name keeps its first
 * place and its last value, as storing the columns in order does; `__proto__` is written as a computed name, so that
 * it is a column like any other and not the row's prototype. */
function rowBuilder(fields: readonly FieldDescription[], parsers: Parser[]): RowShape['build'] {
  const columns = fields.map((f, i) => {
    const name = f.name === '__proto__' ? '["__proto__"]' : JSON.stringify(f.name);
    return `${name}: v[${i}] === null ? null : p[${i}](v[${i}])`;
  });
  // The names are PostgreSQL's column names, written as string literals; nothing else of the statement is compiled.
  return new Function('p', `'use strict';\nreturn function row(v) {\n  return {\n    ${columns.join(',\n    ')}\n  };\n};`)(parsers);
}

function shapeOf(fields: readonly FieldDescription[], types: TypeRegistry): RowShape {
  const parsers = fields.map((f) => types.getTypeParser(f.dataTypeID, f.format || 'text'));
  return { fields, parsers, binary: fields.some((f) => f.format === 'binary'), build: rowBuilder(fields, parsers) };
}

function knownShape(fields: readonly FieldDescription[], types: TypeRegistry): RowShape | undefined {
  let shapes = shapesByRegistry.get(types);
  if (!shapes) shapesByRegistry.set(types, (shapes = new Map()));
  // A cheap first key; the columns themselves decide.
  const key = fields.length === 0 ? '' : `${fields.length}\0${fields[0].name}\0${fields[fields.length - 1].name}`;
  const candidates = shapes.get(key);
  if (candidates) for (const shape of candidates) if (sameColumns(shape.fields, fields)) return shape;
  if (shapes.size >= MAX_SHAPES) return undefined;
  const shape = shapeOf(fields, types);
  if (candidates) candidates.push(shape);
  else shapes.set(key, [shape]);
  return shape;
}

type Prototype = Record<string, unknown>;
const pgInternals = pg as unknown as { Result: { prototype: Prototype }; TypeOverrides: { prototype: Prototype } };
const ResultClass = pgInternals.Result;
const TypeOverrides = pgInternals.TypeOverrides;

/** pg's own registries: the global one and a client's TypeOverrides; their parsers change only by setTypeParser. */
const cacheable = (types: object): boolean => types === pg.types || types instanceof (TypeOverrides as unknown as Function);

function forgettingShapes<F extends (...args: never[]) => unknown>(set: F): F {
  return function (this: unknown, ...args: Parameters<F>) {
    shapesByRegistry = new WeakMap();
    return set.apply(this, args);
  } as F;
}
TypeOverrides.prototype.setTypeParser = forgettingShapes(TypeOverrides.prototype.setTypeParser as never);
pg.types.setTypeParser = forgettingShapes(pg.types.setTypeParser);

const originalAddFields = ResultClass.prototype.addFields as (this: ResultState, fields: FieldDescription[]) => void;
const originalParseRow = ResultClass.prototype.parseRow as (this: ResultState, row: unknown[]) => Record<string, unknown>;

ResultClass.prototype.addFields = function addFields(this: ResultState, fields: FieldDescription[]): void {
  const types = this._types ?? (pg.types as TypeRegistry);
  const shape = cacheable(types) ? knownShape(fields, types) : undefined;
  if (!shape || shape.binary) {
    this._shape = undefined;
    originalAddFields.call(this, fields);
    return;
  }
  this.fields = fields;
  // pg reads `_parsers` as the result's own (array rows); nothing writes to it after addFields.
  this._parsers = fields.length ? shape.parsers : undefined;
  this._prebuiltEmptyResultObject = null; // pg's own parseRow is not called while the result has a shape
  this._shape = shape;
};

ResultClass.prototype.parseRow = function parseRow(this: ResultState, rowData: (string | null)[]): Record<string, unknown> {
  const shape = this._shape;
  return shape ? shape.build(rowData) : originalParseRow.call(this, rowData);
};
