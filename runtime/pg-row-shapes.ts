// pg's Result, reading its rows' shapes once per connection instead of once per statement.
//
// PostgreSQL describes a statement's columns on every execution, prepared or not, and pg's Result.addFields then
// builds the result's row template anew: a null-prototype object (which V8 keeps as a dictionary) with each column
// added, spread into the template, and a type parser looked up per column. For a row of 70 columns (a payment as
// POST /payments returns it) that is ~25 µs per statement (`node` alone, pg 8.23), against ~7 µs to find the shape
// already built. A shape is the same columns by name, type and format; it is kept per type registry (each pg.Client
// has its own), so a client's own parsers are honoured, and each registry keeps a bounded number of shapes. Setting a
// type parser anywhere forgets every shape; a registry of another kind than pg's own (a query's custom `types`) is
// read as pg reads it.
import pg from 'pg';

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface TypeRegistry {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

interface RowShape {
  fields: readonly FieldDescription[];
  parsers: ((value: string) => unknown)[];
  binary: boolean;
  /** the empty row each parsed row is a copy of: its columns in order, as an object literal's (fast) properties */
  template: Record<string, null>;
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

function shapeOf(fields: readonly FieldDescription[], types: TypeRegistry): RowShape {
  const template: Record<string, null> = {};
  const parsers = fields.map((f) => types.getTypeParser(f.dataTypeID, f.format || 'text'));
  for (const f of fields) template[f.name] = null;
  return { fields, parsers, binary: fields.some((f) => f.format === 'binary'), template };
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
  this._prebuiltEmptyResultObject = shape.template;
  this._shape = shape;
};

ResultClass.prototype.parseRow = function parseRow(this: ResultState, rowData: (string | null)[]): Record<string, unknown> {
  const shape = this._shape;
  if (!shape) return originalParseRow.call(this, rowData);
  const row: Record<string, unknown> = { ...shape.template };
  const { fields, parsers } = shape;
  for (let i = 0; i < rowData.length; i++) {
    const raw = rowData[i];
    row[fields[i].name] = raw === null ? null : parsers[i](raw);
  }
  return row;
};
