// An export's CSV columns: the resource's fields at the export's API version, in the order that version's OpenAPI
// document (generated/openapi.json's, the one its responses are checked against) lists them; and each row
// rendered as that version's responses render it (runtime/render.ts: the same downgraders); and the writer they go
// through.
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { versionOn } from '../../runtime/versions.js';
import { renderAt } from '../../runtime/render.js';
import { stringify, type Stringifier } from 'csv-stringify';

const columnsByVersion = new Map<string, string[]>();

export function columnsAt(schema: string, version: string): string[] {
  const resolved = versionOn(version);
  if (!resolved) throw new Error(`${version} is before the first API version`);
  const key = `${schema}@${resolved}`;
  let columns = columnsByVersion.get(key);
  if (!columns) {
    const document = JSON.parse(readOpenApiDocument(join(projectRoot, 'generated'), resolved));
    const properties = document.components?.schemas?.[schema]?.properties;
    if (!properties) throw new Error(`${schema} is not a schema at ${resolved}`);
    columns = Object.keys(properties);
    columnsByVersion.set(key, columns);
  }
  return columns;
}

/** A CSV cell: numbers stay numbers (so the writer knows a leading '-' is a sign), objects and arrays are JSON text,
 * null is empty, anything else its text. */
export type CsvCell = string | number;

/** One CSV record: the resource rendered at the version, a cell per column. */
export function csvRecord(schema: string, object: unknown, version: string, columns: string[]): CsvCell[] {
  const rendered = renderAt(schema, object, version) as Record<string, unknown>;
  return columns.map((column) => {
    const value = rendered[column];
    if (value === null || value === undefined) return '';
    if (typeof value === 'number') return value;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** The exports' one CSV writer (RFC 4180 quoting, a header of the columns). Text cells are neutralised against formula
 * injection (OWASP "CSV Injection"): a text cell that begins with =, +, -, @, a tab or a carriage return (or the
 * full-width =, +, -, @ some spreadsheets normalise) is written behind a single quote, so a spreadsheet shows it as
 * text instead of running it. Number cells are never changed: a negative amount stays a number. */
export const csvWriter = (columns: string[]): Stringifier => stringify({ header: true, columns, escape_formulas: true });
