// An export's CSV columns: the resource's fields at the export's API version, in the order that version's OpenAPI
// document (generated/openapi/<version>.json, the one its responses are checked against) lists them; and each row
// rendered as that version's responses render it (runtime/render.ts: the same downgraders).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { versionOn } from '../../runtime/versions.js';
import { renderAt } from '../../runtime/render.js';

const columnsByVersion = new Map<string, string[]>();

export function columnsAt(schema: string, version: string): string[] {
  const resolved = versionOn(version);
  if (!resolved) throw new Error(`${version} is before the first API version`);
  const key = `${schema}@${resolved}`;
  let columns = columnsByVersion.get(key);
  if (!columns) {
    const document = JSON.parse(readFileSync(join(projectRoot, 'generated', 'openapi', `${resolved}.json`), 'utf8'));
    const properties = document.components?.schemas?.[schema]?.properties;
    if (!properties) throw new Error(`${schema} is not a schema at ${resolved}`);
    columns = Object.keys(properties);
    columnsByVersion.set(key, columns);
  }
  return columns;
}

/** One CSV record: the resource rendered at the version, a cell per column (objects and arrays as JSON, null empty). */
export function csvRecord(schema: string, object: unknown, version: string, columns: string[]): string[] {
  const rendered = renderAt(schema, object, version) as Record<string, unknown>;
  return columns.map((column) => {
    const value = rendered[column];
    if (value === null || value === undefined) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
