// Values as TypeScript source for generated files: strings in single quotes (SQL reads better without escaped
// double quotes), keys unquoted where they can be.

export function tsString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

export function tsLiteral(value: unknown): string {
  if (typeof value === 'string') return tsString(value);
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${/^[a-zA-Z_$][\w$]*$/.test(k) ? k : tsString(k)}: ${tsLiteral(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

/** A list or map of entries, one entry a line (for the generated options objects, indented by two). */
export function tsLines(value: unknown[] | Record<string, unknown>): string {
  const lines = Array.isArray(value)
    ? value.map((v) => tsLiteral(v))
    : Object.entries(value).map(([k, v]) => tsLiteral({ [k]: v }).slice(2, -2));
  if (lines.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.map((l) => `    ${l},`).join('\n')}\n  ${close}`;
}
