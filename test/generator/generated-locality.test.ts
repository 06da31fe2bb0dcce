// A reviewer reads generated/ in a pull request: a one-field spec edit must change only the lines about that field.
// The OpenAPI documents hold each operation and schema once per shape (generated/openapi.json), not once per version;
// the serialisers are named by component and version, not by a hash of their content (which a description changed);
// a validator's names by the property they check, not by ajv's running count (generator/stable-validator-names.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../generator/generate.js';
import { assembleDocument, type OpenApiStore } from '../../runtime/openapi-store.js';
import { FIXTURE, FIXTURE_FILE, projectCopy, removeCopies, replaceOnce } from './spec-fixture.js';

const t = suite('generator: a one-field edit changes only its lines');
t.after(() => removeCopies());

const scratch = mkdtempSync(join(tmpdir(), 'gen-locality-'));

/** The lines `diff` reports removed and added between two texts. */
function changedLines(before: string, after: string): string[] {
  writeFileSync(join(scratch, 'a'), before);
  writeFileSync(join(scratch, 'b'), after);
  try {
    execFileSync('diff', [join(scratch, 'a'), join(scratch, 'b')], { encoding: 'utf8' });
    return [];
  } catch (e) {
    return String((e as { stdout: string }).stdout).split('\n').filter((l) => /^[<>]/.test(l));
  }
}

/** Every generated file's changed lines after `edit` of the fixture area, by file (unchanged files left out). */
function changesAfter(edit: (fixture: string) => string): Record<string, string[]> {
  const before = generate(projectCopy()).files;
  const after = generate(projectCopy({ fixture: edit(FIXTURE) })).files;
  const out: Record<string, string[]> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const lines = changedLines(before[name] ?? '', after[name] ?? '');
    if (lines.length) out[name] = lines;
  }
  return out;
}

t('a field\'s description: one line in the documents\' file, none in the serialisers', () => {
  const changes = changesAfter((f) => replaceOnce(f, '      name: string\n', "      name: { type: string, description: 'What the owner calls it.' }\n"));
  assert.equal(Object.keys(changes).sort(), ['openapi.json', 'types.ts']);
  assert.ok(changes['openapi.json'].every((l) => /"description": |"type": "string"/.test(l)), changes['openapi.json'].join('\n'));
  assert.ok(changes['openapi.json'].length <= 4, changes['openapi.json'].join('\n'));
});

t('a new response field: its lines in the documents\' file and in its component\'s serialiser, nothing renamed', () => {
  const changes = changesAfter((f) => replaceOnce(f, '      size: integer?\n', '      size: integer?\n      nickname: string?\n'));
  const documents = changes['openapi.json'];
  assert.ok(documents.every((l) => l.startsWith('>')), `only added lines:\n${documents.join('\n')}`);
  assert.ok(documents.length <= 8, documents.join('\n'));
  const serializers = changes['serializers.js'];
  assert.ok(serializers.length <= 2 && serializers.every((l) => l.startsWith('>') && l.includes('nickname')), serializers.join('\n'));
});

t('a new body field between two others: the validator gains its lines and renames none after it', () => {
  const changes = changesAfter((f) => replaceOnce(f, '      name: { type: string, max_length: 50 }\n',
    '      name: { type: string, max_length: 50 }\n      nickname: { type: string, max_length: 20 }\n'));
  const validators = changes['validators-body.js'];
  const removed = validators.filter((l) => l.startsWith('<'));
  // Only the lines listing every field change (the validator's whole schema, the names it accepts); the rest is
  // added, none of it about another field.
  assert.ok(removed.length <= 2 && removed.every((l) => /^< (const schema\d+ = |if\(!\(+key\d+ === )/.test(l)), removed.join('\n'));
  assert.not.ok(validators.some((l) => /colour/.test(l) && !/^[<>] (const schema\d+ = |if\(!\(+key\d+ === )/.test(l)), validators.join('\n'));
});

t('generated/openapi.json gives back every version\'s document byte for byte', () => {
  const { files, documents } = generate(projectCopy());
  const store = JSON.parse(files['openapi.json']) as OpenApiStore;
  assert.equal(Object.keys(store.versions).sort(), Object.keys(documents).sort());
  for (const [version, text] of Object.entries(documents)) assert.is(assembleDocument(store, version), text, version);
  assert.is(assembleDocument(store, '1999-01-01'), null);
});

t.run();
