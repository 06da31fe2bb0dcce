// Temporary projects for the generator's own tests: a small fixture spec (test/generator/fixtures/spec: this API's
// api.yaml, an accounts area and two versions) plus a fixture area whose text the tests mutate, so a test neither
// copies nor generates the whole API, and its expected line numbers do not move when other areas change.
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../generator/load-spec.js';
import { SpecError } from '../../generator/spec-source.js';
import { projectRoot } from '../../runtime/project-root.js';

export const FIXTURE_AREA = 'test_widgets';
export const FIXTURE_FILE = `spec/areas/${FIXTURE_AREA}.yaml`;

export const FIXTURE = `# A fixture area for the generator's own tests.
resources:
  TestWidget:
    prefix: twgt_
    object: test_widget
    fields:
      id: { type: id, resource: TestWidget }
      name: string
      colour: { type: enum, values: [red, green] }
      size: integer?
      created_at: timestamp

  TestGadget:
    prefix: tgdt_
    fields:
      id: { type: id, resource: TestGadget }
      widget: { type: ref, ref: TestWidget }

operations:
  retrieveTestWidget:
    method: GET
    path: /test_widgets/{id}
    summary: Retrieve a test widget
    scopes: [company:basic:read]
    response: { type: TestWidget }
    errors: [401, 404]

  updateTestWidget:
    method: PATCH
    path: /test_widgets/{id}
    summary: Update a test widget
    scopes: [company:update]
    body:
      name: { type: string, max_length: 50 }
      colour: { type: enum, values: [red, green] }
    response: { type: TestWidget }
    errors: [400, 401, 404]

  listTestWidgets:
    method: GET
    path: /test_widgets
    summary: List test widgets
    scopes: [company:basic:read]
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
`;

const roots: string[] = [];

/** Replaces exactly one occurrence of `from`; a test whose anchor text is gone fails here, not silently. */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  assert.ok(at >= 0, `fixture text not found: ${JSON.stringify(from)}`);
  assert.is(text.indexOf(from, at + 1), -1, `fixture text is not unique: ${JSON.stringify(from)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The 1-based line of the first line containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `no line contains ${JSON.stringify(needle)}`);
  return i + 1;
}

/** The fixture project's spec folder. */
export const FIXTURE_SPEC = join(projectRoot, 'test/generator/fixtures/spec');

/** A temporary project root with the fixture spec/ (plus the fixture area, as given) and, optionally, this project's
 * runtime/ (for a type-check inside the copy). */
export function projectCopy(options: { fixture?: string; with?: 'runtime'[] } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'gen-test-'));
  roots.push(root);
  cpSync(FIXTURE_SPEC, join(root, 'spec'), { recursive: true });
  writeFileSync(join(root, FIXTURE_FILE), options.fixture ?? FIXTURE);
  for (const dir of options.with ?? []) cpSync(join(projectRoot, dir), join(root, dir), { recursive: true });
  return root;
}

/** A temporary copy of another temporary project copy. */
export function copyOf(source: string): string {
  const root = mkdtempSync(join(tmpdir(), 'gen-test-'));
  roots.push(root);
  cpSync(source, root, { recursive: true });
  return root;
}

/** Lets tsc in a copy resolve packages from the real project. */
export function linkNodeModules(root: string): void {
  symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
}

export function writeIn(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

export function removeCopies(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** The problems loadSpec reports for a copy whose fixture area is `fixture`; fails if it loads cleanly. */
export function problemsWith(fixture: string, mutateApi?: (text: string) => string): string[] {
  const root = projectCopy({ fixture });
  if (mutateApi) {
    const api = join(root, 'spec/api.yaml');
    writeFileSync(api, mutateApi(readText(api)));
  }
  return problemsOf(root);
}

/** The problems loadSpec reports for the fixture in a copy whose migrations/tables.json is `tables` (the columns
 * the generator checks names against). */
export function problemsWithTables(fixture: string, tables: string): string[] {
  const root = projectCopy({ fixture });
  writeIn(root, 'migrations/tables.json', tables);
  return problemsOf(root);
}

function problemsOf(root: string): string[] {
  const problems = specProblems(root);
  if (!problems.length) assert.unreachable('loadSpec accepted a broken spec');
  return problems;
}

/** The problems loadSpec reports for the project at `root`; none when it accepts the spec. */
export function specProblems(root: string): string[] {
  try {
    loadSpec(root);
    return [];
  } catch (e) {
    if (e instanceof SpecError) return e.problems;
    throw e;
  }
}

export const readText = (path: string) => readFileSync(path, 'utf8');

/** ajv's own phrases: a problem message must never be one of these. */
const RAW_AJV = /must match a schema in anyOf|must match exactly one schema in oneOf|must be equal to one of the allowed values|must have required property|must NOT have|must match pattern|must be (string|object|array|integer|number|boolean)$|#\/\$defs|instancePath|schemaPath/;

/**
 * The one problem at `file:line` (any column), asserting it is a readable sentence that mentions every `words`.
 */
export function problemAt(problems: string[], file: string, line: number, ...words: string[]): string {
  const re = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}:(\\d+): (.+)$`);
  const found = problems.filter((p) => re.test(p));
  assert.ok(found.length >= 1, `no problem at ${file}:${line} among:\n${problems.join('\n')}`);
  const match = found.find((p) => words.every((w) => p.includes(w)));
  assert.ok(match, `the problem at ${file}:${line} does not mention ${words.join(', ')}:\n${found.join('\n')}`);
  const sentence = re.exec(match!)![2];
  assert.not.match(sentence, RAW_AJV, `raw ajv text in: ${sentence}`);
  assert.ok(sentence.length > 20 && /\s/.test(sentence), `not a sentence: ${sentence}`);
  return match!;
}

export function assertNoRawAjv(problems: string[]): void {
  for (const p of problems) assert.not.match(p, RAW_AJV, `raw ajv text in: ${p}`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the generator CLI (what `npm run generate` / `npm run check` run) against a project copy. */
export function runGenerator(root: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'generator/generate.ts'), '--root', root, ...args],
      { cwd: projectRoot, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
