// Reads spec/ YAML files keeping source positions, so every later message can say file:line:column.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';

export interface SourceFile {
  path: string;
  doc: Document.Parsed;
  lines: LineCounter;
  data: unknown;
}

export class SpecError extends Error {
  constructor(public readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export function readSpecFile(root: string, file: string): SourceFile {
  const text = readFileSync(file, 'utf8');
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const rel = relative(root, file);
  if (doc.errors.length > 0) {
    throw new SpecError(
      doc.errors.map((e) => {
        const pos = lines.linePos(e.pos[0]);
        return `${rel}:${pos.line}:${pos.col}: ${yamlProblem(text, e.code, e.pos[0], e.message)}`;
      }),
    );
  }
  return { path: rel, doc, lines, data: doc.toJS() ?? {} };
}

/** The yaml library's message as a sentence; a duplicate key names the key. */
function yamlProblem(text: string, code: string, offset: number, message: string): string {
  if (code === 'DUPLICATE_KEY') {
    const key = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#\n]+?)\s*:/.exec(text.slice(offset))?.[1];
    const quoted = key === undefined ? '' : /^["']/.test(key) ? `${key} ` : `"${key}" `;
    return `the key ${quoted}appears twice in the same mapping; each key may appear once`;
  }
  return `YAML syntax error: ${message.split('\n')[0]}`;
}

/** "file:line:col" of the node at a path (or its nearest existing ancestor). */
export function locate(source: SourceFile, path: (string | number)[], key = false): string {
  for (let n = path.length; n >= 0; n--) {
    const node = findNode(source.doc, path.slice(0, n), key && n === path.length);
    // Offset 0 is a position too: the file's own mapping.
    if (node !== undefined) {
      const pos = source.lines.linePos(node);
      return `${source.path}:${pos.line}:${pos.col}`;
    }
  }
  return source.path;
}

function findNode(doc: Document.Parsed, path: (string | number)[], key: boolean): number | undefined {
  if (path.length === 0) return doc.contents?.range?.[0];
  if (key) {
    const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
    const items = (parent as { items?: { key?: unknown }[] } | undefined)?.items;
    const pair = items?.find((p) => isNode(p.key) && (p.key as { value?: unknown }).value === path[path.length - 1]);
    if (pair && isNode(pair.key)) return pair.key.range?.[0];
  }
  const node = doc.getIn(path, true);
  return isNode(node) ? node.range?.[0] : undefined;
}

export function listAreaFiles(specDir: string): string[] {
  const dir = join(specDir, 'areas');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
}
