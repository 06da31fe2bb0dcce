// JSON text a client may send but JSON.stringify never writes: number tokens past what a double holds (1e999,
// 9007199254740993), duplicate keys, a literal "__proto__" key, nesting ten thousand deep.

/** A JSON token written as it is. */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object written key by key, in order, duplicates and "__proto__" included. */
export class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

/** JSON text of a value that may hold Raw tokens and Entries objects. */
export function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Entries) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') return jsonText(new Entries(Object.entries(value)));
  // JSON.stringify escapes lone surrogates (\ud800), so the server's JSON.parse gives them back unpaired.
  return JSON.stringify(value) ?? 'null';
}

/** A value as a query-string value: tokens as their text, the rest as JSON would print it, strings as they are. */
export function queryText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (typeof value === 'string') return value;
  return jsonText(value);
}

export const deeplyNested = (depth: number, arrays: boolean) =>
  new Raw(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
