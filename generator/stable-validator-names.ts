// ajv numbers the names in a validator's code in the order it writes them (data5, _errs12, pattern4), so a field
// added to a body renumbered every name after it: a one-field edit showed as dozens of changed lines. This renames
// them after what they are instead: a name used only in one top-level property's code after that property
// (`data_note_0`, `_errs_note_1`), a module constant after what it holds (`func_ucs2length`, `formats_date_time`, a
// pattern by its hash: `pattern_1a2b3c4d`). A name shared by several properties' code (the object's own `valid0`,
// `_errs1`) keeps ajv's number, which an added field does not move. Only identifiers are renamed, never text inside
// string literals, a property after a dot or a number's exponent; if a new name would collide, the code is left as
// ajv wrote it.
import { createHash } from 'node:crypto';

/** A numbered identifier ajv writes: `<prefix><number>`, not after a dot (a property) and not inside a string. */
const NUMBERED = /^([A-Za-z_$][A-Za-z_$]*?)(\d+)$/;
/** Names the module gives its own meaning to: the schema and the function ajv exports stay as they are. */
const KEPT = new Set(['schema', 'validate']);

interface Token { text: string; code: boolean }

/** The code split into string literals and the code between them (ajv writes no regular expression literals). */
function tokens(code: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let start = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '"' || c === "'" || c === '`') {
      if (i > start) out.push({ text: code.slice(start, i), code: true });
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      out.push({ text: code.slice(i, j + 1), code: false });
      i = start = j + 1;
    } else i++;
  }
  if (start < code.length) out.push({ text: code.slice(start), code: true });
  return out;
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** A property after a dot, or the tail of a number (`1e21`): not an identifier of its own. */
const partOfAnother = (text: string, at: number) => at > 0 && /[.0-9]/.test(text[at - 1]);
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
const safe = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_');

export function stableValidatorNames(code: string): string {
  const lines = code.split('\n');
  const perLine = lines.map((line) => tokens(line));
  // Which top-level property's code each line belongs to: from `let dataN = data.<name>;` to the next such line or
  // the end of the function (braces counted outside strings); module constants, before any function, by name.
  const regionOf: (string | null)[] = [];
  const constants = new Map<string, string>();
  let region: string | null = null;
  let depth = 0;
  lines.forEach((line, n) => {
    const own = /^let data\d+ = data(?:\.([A-Za-z_$][A-Za-z0-9_$]*)|\[("(?:[^"\\]|\\.)*")\]);$/.exec(line);
    if (own && depth > 0) region = own[1] ?? JSON.parse(own[2]);
    const constant = depth === 0 && /^const ([A-Za-z_$][A-Za-z_$]*?\d+) = (.*);$/.exec(line);
    if (constant) constants.set(constant[1], constant[2]);
    regionOf.push(depth > 0 ? region : null);
    for (const token of perLine[n]) if (token.code) for (const c of token.text) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
    if (depth === 0) region = null;
  });
  // Where each numbered identifier occurs: the property regions (null: outside any).
  const seen = new Map<string, Set<string | null>>();
  const order: string[] = [];
  const all = new Set<string>();
  perLine.forEach((lineTokens, n) => {
    for (const token of lineTokens) {
      if (!token.code) continue;
      for (const m of token.text.matchAll(IDENTIFIER)) {
        const name = m[0];
        all.add(name);
        if (partOfAnother(token.text, m.index!) || !NUMBERED.test(name)) continue;
        if (!seen.has(name)) {
          seen.set(name, new Set());
          order.push(name);
        }
        seen.get(name)!.add(regionOf[n]);
      }
    }
  });
  const renamed = new Map<string, string>();
  const counters = new Map<string, number>();
  for (const name of order) {
    const [, prefix] = NUMBERED.exec(name)!;
    if (KEPT.has(prefix)) continue;
    const constant = constants.get(name);
    const formats = constant && /^inputFormats\[("(?:[^"\\]|\\.)*")\]$/.exec(constant);
    const known = constant && (/^require\("(?:[^"]*\/)?([^"/]+)"\)(?:\.default)?$/.exec(constant) ?? /^[A-Za-z_$][\w$.]*\.([A-Za-z_$][\w$]*)$/.exec(constant));
    if (formats) renamed.set(name, `${prefix}_${safe(JSON.parse(formats[1]))}`);
    else if (known) renamed.set(name, `${prefix}_${safe(known[1])}`);
    else if (constant !== undefined) renamed.set(name, `${prefix}_${hash(constant)}`);
    else {
      const regions = [...seen.get(name)!];
      if (regions.length !== 1 || regions[0] === null) continue;
      const key = `${prefix}_${safe(regions[0])}`;
      const k = counters.get(key) ?? 0;
      counters.set(key, k + 1);
      renamed.set(name, `${key}_${k}`);
    }
  }
  const targets = [...renamed.values()];
  if (new Set(targets).size !== targets.length || targets.some((t) => all.has(t))) return code;
  return perLine.map((lineTokens) => lineTokens.map((token) => (token.code
    ? token.text.replace(IDENTIFIER, (name, at: number) => (partOfAnother(token.text, at) ? name : renamed.get(name) ?? name))
    : token.text)).join('')).join('\n');
}
